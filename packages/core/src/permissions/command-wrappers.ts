import { type InnerCommand, joinedScript, literalWord, runTimeWord, scriptFrom, unknownCommand } from './inner-command.js';
import { type OptionSpec, parseArguments } from './option-parser.js';
import { assignmentInnerCommands } from './program-variables.js';
import type { ShellWord } from './shell-words.js';

/**
 * Programs that run another command given in their arguments, with the options they accept before
 * it. An option that is not listed makes the inner command unknown: guessing whether it takes a
 * value could pick the wrong word as the program.
 */
interface WrapperSpec {
  options: OptionSpec;
  /** Operands before the command (`timeout DURATION cmd`, `chroot DIR cmd`, `flock FILE cmd`). */
  skipOperands?: number;
  /** `NAME=value` words before the command (env, sudo). */
  assignments?: boolean;
  /** Options whose value is a shell script (`env -S`, `flock -c`, `script -c`). */
  scriptOptions?: readonly string[];
  /** The command words are joined into one shell script (`watch`, `ssh`), unless one of these options is given. */
  joinsWords?: boolean;
  /** With one of these options, the words are run as argv instead (`watch -x`). */
  execOptions?: readonly string[];
  /** Without a command, the program runs a shell that reads commands from stdin (`su`, `ssh host`, `sudo -s`). */
  readsShellFromStdin?: 'always' | readonly string[];
}

const help = ['--help', '--version'];

export const wrapperSpecs: Record<string, WrapperSpec> = {
  nice: { options: { valued: 'n', numeric: true, longValued: ['--adjustment'], long: help } },
  nohup: { options: { long: help } },
  setsid: { options: { flags: 'cfw', long: ['--ctty', '--fork', '--wait', ...help] } },
  time: { options: { flags: 'pvaq', valued: 'fo', long: ['--verbose', '--append', '--portability', '--quiet', ...help], longValued: ['--format', '--output'] } },
  timeout: { options: { flags: 'v', valued: 'sk', long: ['--foreground', '--preserve-status', '--verbose', ...help], longValued: ['--signal', '--kill-after'] }, skipOperands: 1 },
  stdbuf: { options: { valued: 'ioe', longValued: ['--input', '--output', '--error'], long: help } },
  env: {
    options: {
      flags: '0iv',
      valued: 'uCS',
      long: ['--ignore-environment', '--null', '--debug', '--list-signal-handling', ...help],
      longValued: ['--unset', '--chdir', '--split-string'],
      longOptional: ['--block-signal', '--default-signal', '--ignore-signal'],
    },
    assignments: true,
    scriptOptions: ['-S', '--split-string'],
  },
  exec: { options: { flags: 'cl', valued: 'a' } },
  command: { options: { flags: 'pvV' } },
  builtin: { options: {} },
  sudo: {
    options: {
      flags: 'AbEeHiKklnPSsV',
      valued: 'CDghpRrTtUu',
      long: ['--askpass', '--background', '--edit', '--set-home', '--login', '--reset-timestamp', '--remove-timestamp', '--list', '--non-interactive', '--preserve-groups', '--stdin', '--shell', '--validate', ...help],
      longValued: ['--user', '--group', '--host', '--prompt', '--chdir', '--role', '--type', '--command-timeout', '--other-user', '--close-from', '--chroot'],
      longOptional: ['--preserve-env'],
    },
    assignments: true,
    readsShellFromStdin: ['-s', '--shell', '-i', '--login'],
  },
  doas: { options: { flags: 'Lns', valued: 'Cu' } },
  ionice: { options: { flags: 't', valued: 'cn', long: ['--ignore', ...help], longValued: ['--class', '--classdata'] } },
  chrt: { options: { flags: 'abdfiormeRv', valued: 'TPD', long: ['--all-tasks', '--batch', '--deadline', '--fifo', '--idle', '--other', '--rr', '--reset-on-fork', '--verbose', ...help], longValued: ['--sched-runtime', '--sched-period', '--sched-deadline'] }, skipOperands: 1 },
  taskset: { options: { flags: 'ac', long: ['--all-tasks', '--cpu-list', ...help] }, skipOperands: 1 },
  chroot: { options: { long: ['--skip-chdir', ...help], longValued: ['--userspec', '--groups'] }, skipOperands: 1 },
  setpriv: {
    options: {
      flags: 'd',
      long: ['--clear-groups', '--keep-groups', '--init-groups', '--nnp', '--no-new-privs', '--reset-env', '--dump', ...help],
      longValued: ['--reuid', '--regid', '--ruid', '--rgid', '--euid', '--egid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile'],
    },
  },
  strace: { options: { flags: 'cCdDfFhiqrtTvVwxyzZk', valued: 'abeEIoOpPsSuUX' } },
  busybox: { options: {} },
  eatmydata: { options: {} },
  fakeroot: { options: { flags: 'u', valued: 'lsib', long: ['--unknown-is-real', ...help], longValued: ['--lib', '--faked'] } },
  unbuffer: { options: { flags: 'p' } },
  catchsegv: { options: {} },
  'dbus-run-session': { options: { long: help, longValued: ['--config-file', '--dbus-daemon'] } },
  flock: {
    options: { flags: 'sxenouFv', valued: 'wEc', long: ['--shared', '--exclusive', '--unlock', '--nonblock', '--nb', '--close', '--no-fork', '--verbose', ...help], longValued: ['--timeout', '--wait', '--conflict-exit-code', '--command'] },
    skipOperands: 1,
    scriptOptions: ['-c', '--command'],
  },
  watch: {
    options: { flags: 'bcCefgprtwx', valued: 'nq', optionalAttached: 'd', long: ['--beep', '--color', '--no-color', '--errexit', '--chgexit', '--precise', '--no-rerun', '--no-title', '--no-wrap', '--exec', ...help], longValued: ['--interval', '--equexit'], longOptional: ['--differences'] },
    joinsWords: true,
    execOptions: ['-x', '--exec'],
  },
  ssh: { options: { flags: '46AaCfGgKkMNnqsTtVvXxYy', valued: 'BbcDEeFIiJLlmOoPpQRSWw' }, skipOperands: 1, joinsWords: true, readsShellFromStdin: 'always' },
  script: { options: { flags: 'aefqkT', valued: 'cEIOBm', long: ['--append', '--return', '--flush', '--force', '--quiet', ...help], longValued: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format', '--output-limit'] }, scriptOptions: ['-c', '--command'], skipOperands: Number.POSITIVE_INFINITY, readsShellFromStdin: 'always' },
  su: { options: { flags: 'lmpPfT', valued: 'cCgGsw', long: ['--login', '--preserve-environment', '--pty', '--no-pty', ...help], longValued: ['--command', '--session-command', '--group', '--supp-group', '--shell', '--whitelist-environment'] }, scriptOptions: ['-c', '-C', '--command', '--session-command'], skipOperands: Number.POSITIVE_INFINITY, readsShellFromStdin: 'always' },
};

/** Applies a wrapper spec to the words after the program. */
export function unwrapCommand(name: string, spec: WrapperSpec, words: ShellWord[]): InnerCommand[] {
  const outcome = parseArguments(
    words.map((word) => word.value),
    { ...spec.options, stopAtOperand: true },
  );
  if ('unknown' in outcome) return [unknownCommand(name, `${name} option ${outcome.unknown} is not understood, so the command it runs is not known`)];
  const { options, rest } = outcome.parsed;
  const inner: InnerCommand[] = [];
  const optionsAreStatic = words.slice(0, rest).every((word) => !word.dynamic);
  let index = rest;
  if (spec.assignments) {
    while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[index] as ShellWord).value)) {
      inner.push(...assignmentInnerCommands(words[index] as ShellWord, name));
      index++;
    }
  }
  const command = words.slice(Math.min(words.length, index + (spec.skipOperands ?? 0)));
  const scriptOption = options.find((option) => spec.scriptOptions?.includes(option.name));
  if (scriptOption) {
    if (!optionsAreStatic) return [...inner, unknownCommand(name, `${name} runs a script built from run-time values`)];
    // `env -S 'rm -rf' x` runs `rm -rf x`; `flock -c` and `script -c` run their value alone.
    const script = name === 'env' ? joinedScript([literalWord(scriptOption.value ?? ''), ...command], name) : scriptFrom(literalWord(scriptOption.value ?? ''), name);
    return script ? [...inner, script] : inner;
  }
  if (name === 'flock' && (command[0]?.value === '-c' || command[0]?.value === '--command')) {
    const script = scriptFrom(command[1], name);
    return script ? [...inner, script] : inner;
  }
  if (command.length === 0) {
    const stdin = spec.readsShellFromStdin;
    const readsStdin = stdin === 'always' || (stdin !== undefined && options.some((option) => stdin.includes(option.name)));
    return readsStdin ? [...inner, { kind: 'stdin', via: name, language: 'shell' }] : inner;
  }
  const exec = options.some((option) => spec.execOptions?.includes(option.name));
  if (spec.joinsWords && !exec) {
    const script = joinedScript(command, name);
    return script ? [...inner, script] : inner;
  }
  return [...inner, { kind: 'argv', words: command, via: name }];
}

const xargsOptions: OptionSpec = {
  flags: '0prtxo',
  valued: 'adEILnPs',
  optionalAttached: 'eil',
  long: ['--null', '--no-run-if-empty', '--verbose', '--interactive', '--exit', '--open-tty', '--show-limits', ...help],
  longValued: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  longOptional: ['--eof', '--replace', '--max-lines'],
};

/** `xargs [options] [command [args]]`: the command gets input lines as extra arguments (or in place of the replace string). */
export function xargsInner(words: ShellWord[]): InnerCommand[] {
  const outcome = parseArguments(
    words.map((word) => word.value),
    { ...xargsOptions, stopAtOperand: true },
  );
  if ('unknown' in outcome) return [unknownCommand('xargs', `xargs option ${outcome.unknown} is not understood, so the command it runs is not known`)];
  const { options, rest } = outcome.parsed;
  const replace = options.find((option) => option.name === '-I' || option.name === '-i' || option.name === '--replace');
  const replaceString = replace ? (replace.value ?? '{}') || '{}' : undefined;
  const command = words.slice(rest);
  if (command.length === 0) return [];
  const filled = command.map((word) => (replaceString !== undefined && word.value.includes(replaceString) ? runTimeWord : word));
  return [{ kind: 'argv', words: replaceString === undefined ? [...filled, runTimeWord] : filled, via: 'xargs' }];
}

const findRunners = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** `find ... -exec cmd {} ;` (also -execdir, -ok, -okdir, and the `+` form): each is an inner command. */
export function findInner(words: ShellWord[]): InnerCommand[] {
  const inner: InnerCommand[] = [];
  for (let index = 0; index < words.length; index++) {
    if (!findRunners.has((words[index] as ShellWord).value)) continue;
    const command: ShellWord[] = [];
    for (index++; index < words.length; index++) {
      const word = words[index] as ShellWord;
      if (word.value === ';' || (word.value === '+' && command.at(-1)?.value === '{}')) break;
      command.push(word.value.includes('{}') ? runTimeWord : word);
    }
    if (command.length > 0) inner.push({ kind: 'argv', words: command, via: 'find' });
  }
  return inner;
}

/** `runuser -u USER [--] cmd...` runs argv; otherwise runuser takes su's options (`-c CMD`, or a shell on stdin). */
export function runuserInner(words: ShellWord[]): InnerCommand[] {
  const userIndex = words.findIndex((word) => word.value === '-u' || word.value === '--user');
  if (userIndex !== -1) {
    const after = words.slice(userIndex + 2);
    const command = after[0]?.value === '--' ? after.slice(1) : after;
    return command.length > 0 ? [{ kind: 'argv', words: command, via: 'runuser' }] : [];
  }
  return unwrapCommand('runuser', wrapperSpecs.su as WrapperSpec, words);
}

/** `sg GROUP [-c] command...`: the words after the group are joined and run by /bin/sh. */
export function sgInner(words: ShellWord[]): InnerCommand[] {
  const start = words[0]?.value === '-' ? 1 : 0;
  const rest = words.slice(start + 1);
  const command = rest[0]?.value === '-c' ? rest.slice(1) : rest;
  const script = joinedScript(command, 'sg');
  return script ? [script] : [];
}

const packageRunnerOptions: OptionSpec = {
  flags: 'yq',
  valued: 'pcw',
  long: ['--yes', '--no', '--no-install', '--quiet', '--ignore-existing', '--workspaces', '--include-workspace-root'],
  longValued: ['--package', '--call', '--workspace'],
};

/** `npx cmd`, `npm exec -- cmd`, `pnpm exec cmd`, `uv run cmd`, ...: a program from the project or PATH (`npm exec rm` runs rm). */
export function packageRunnerInner(via: string, words: ShellWord[]): InnerCommand[] {
  const outcome = parseArguments(
    words.map((word) => word.value),
    { ...packageRunnerOptions, stopAtOperand: true },
  );
  if ('unknown' in outcome) return [unknownCommand(via, `${via} option ${outcome.unknown} is not understood, so the command it runs is not known`)];
  const call = outcome.parsed.options.find((option) => option.name === '-c' || option.name === '--call');
  if (call) return [scriptFrom(literalWord(call.value ?? ''), via) as InnerCommand];
  const command = words.slice(outcome.parsed.rest);
  return command.length > 0 ? [{ kind: 'argv', words: command, via }] : [];
}
