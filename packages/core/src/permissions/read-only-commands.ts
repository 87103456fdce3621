import type { ShellWord } from './shell-words.js';

/**
 * Returns why a command is not read-only, or undefined when it is. `args` excludes the program.
 * Every entry is conservative: an option we do not know to be harmless makes the verdict false.
 */
type ReadOnlyCheck = (args: string[]) => string | undefined;

interface ReadOnlyProgram {
  check?: ReadOnlyCheck;
  /**
   * True when no argument can make the program run code or write a file, so arguments that come
   * from expansions or globs (a file named `--pre=sh`) are harmless.
   */
  anyArguments?: boolean;
}

const optionName = (arg: string) => arg.split('=')[0] ?? arg;

function refuseOptions(refused: string[], shortFlags = ''): ReadOnlyCheck {
  return (args) => {
    for (const arg of args) {
      if (arg === '--') break;
      if (refused.includes(optionName(arg))) return `option ${optionName(arg)} can run programs or write files`;
      if (shortFlags && /^-[^-]/.test(arg)) {
        for (const flag of arg.slice(1)) if (shortFlags.includes(flag)) return `option -${flag} can run programs or write files`;
      }
    }
    return undefined;
  };
}

const operands = (args: string[]) => args.filter((arg) => !arg.startsWith('-'));

const findCheck: ReadOnlyCheck = (args) => {
  const refused = ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];
  const found = args.find((arg) => refused.includes(arg));
  return found ? `find ${found} runs programs or changes files` : undefined;
};

// sed is read-only only for scripts we can read completely: printing, deleting from the stream,
// quitting, and s/// without the `e` (execute) or `w` (write) flags. -i edits files in place.
const sedScript = /^(?:(?:\d+|\$)(?:,(?:\d+|\$|\+\d+))?)?(?:[pdq=]|s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gip0-9]*)$/;
const sedCheck: ReadOnlyCheck = (args) => {
  let scriptSeen = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '-n' || arg === '--quiet' || arg === '--silent' || arg === '-E' || arg === '-r' || arg === '--regexp-extended') continue;
    if (arg === '-e' || arg === '--expression') {
      const script = args[++index] ?? '';
      if (!sedScript.test(script)) return `sed script "${script}" may execute or write (only p, d, q, = and s/// without e/w are read-only)`;
      scriptSeen = true;
      continue;
    }
    if (arg.startsWith('-')) return `sed option ${arg} is not known to be read-only`;
    if (!scriptSeen) {
      if (!sedScript.test(arg)) return `sed script "${arg}" may execute or write (only p, d, q, = and s/// without e/w are read-only)`;
      scriptSeen = true;
    }
  }
  return undefined;
};

const awkCheck: ReadOnlyCheck = (args) => {
  let programSeen = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '-F' || arg === '-v') {
      index++;
      continue;
    }
    if (/^-[Fv]./.test(arg)) continue;
    if (arg.startsWith('-')) return `awk option ${arg} is not known to be read-only (-f, -i, -l load code)`;
    if (!programSeen) {
      if (/system|\||>|getline|@load|ENVIRON/.test(arg)) return 'awk program uses system(), pipes, getline or output redirection';
      programSeen = true;
    }
  }
  return undefined;
};

const gitGlobalRefused = ['-c', '--config-env', '--exec-path', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--list-cmds'];
const gitReadOnlySubcommands: Record<string, ReadOnlyCheck> = {
  status: refuseOptions([]),
  log: refuseOptions(['--output', '--ext-diff', '-o']),
  diff: refuseOptions(['--output', '--ext-diff', '-o']),
  show: refuseOptions(['--output', '--ext-diff', '-o']),
  blame: refuseOptions([]),
  shortlog: refuseOptions([]),
  describe: refuseOptions([]),
  'rev-parse': refuseOptions([]),
  'ls-files': refuseOptions([]),
  'ls-tree': refuseOptions([]),
  'cat-file': refuseOptions(['--filters', '--textconv']),
  grep: refuseOptions(['--open-files-in-pager'], 'O'),
  branch: (args) => (args.every((arg) => ['-a', '-r', '-v', '-vv', '--list', '-l', '--show-current', '--all', '--remotes', '--no-color'].includes(arg)) ? undefined : 'git branch with arguments can create, rename or delete branches'),
  tag: (args) => (args.every((arg) => arg === '-l' || arg === '--list') ? undefined : 'git tag with arguments can create tags'),
  remote: (args) => (args.every((arg) => arg === '-v' || arg === '--verbose') ? undefined : 'git remote with arguments can change remotes'),
  config: (args) => (args.some((arg) => ['--get', '--get-all', '--list', '-l', '--get-regexp'].includes(arg)) && !args.some((arg) => ['--add', '--unset', '--unset-all', '--replace-all', '--edit', '-e', '--rename-section', '--remove-section'].includes(arg)) ? undefined : 'git config without --get/--list can change configuration'),
};

const gitCheck: ReadOnlyCheck = (args) => {
  let index = 0;
  while (index < args.length && (args[index] ?? '').startsWith('-')) {
    const arg = args[index] ?? '';
    if (gitGlobalRefused.includes(optionName(arg))) return `git ${optionName(arg)} can point git at programs or configuration`;
    if (arg === '-C') index++;
    else if (!['--no-pager', '--no-optional-locks', '-P', '--literal-pathspecs', '--no-replace-objects'].includes(arg)) return `git option ${arg} is not known to be read-only`;
    index++;
  }
  const subcommand = args[index];
  if (subcommand === undefined) return 'git without a subcommand';
  const check = gitReadOnlySubcommands[subcommand];
  if (!check) return `git ${subcommand} is not a read-only subcommand`;
  return check(args.slice(index + 1));
};

const always: ReadOnlyProgram = { anyArguments: true };

/** The conservative allow-list of read-only programs. A program not listed here is never read-only. */
export const readOnlyPrograms: Record<string, ReadOnlyProgram> = {
  ls: always, cat: always, head: always, tail: always, wc: always, pwd: always, echo: always, printf: always,
  true: always, false: always, whoami: always, id: always, uname: always, stat: always, du: always, df: always,
  realpath: always, readlink: always, basename: always, dirname: always, cmp: always, nl: always, cut: always,
  tr: always, rev: always, tac: always, paste: always, comm: always, fold: always, column: always, expand: always,
  seq: always, sleep: always, which: always, type: always, test: always, '[': always, cd: always, printenv: always,
  md5sum: always, sha1sum: always, sha256sum: always, sha512sum: always, base64: always, od: always, hexdump: always,
  strings: always, diff: always, grep: always, egrep: always, fgrep: always, jq: always, ps: always, file: { check: refuseOptions(['--compile'], 'C') },
  date: { check: refuseOptions(['--set'], 's') },
  hostname: { check: (args) => (operands(args).length === 0 ? undefined : 'hostname NAME changes the host name') },
  uniq: { check: (args) => (operands(args).length <= 1 ? undefined : 'uniq INPUT OUTPUT writes OUTPUT') },
  xxd: { check: (args) => (operands(args).length <= 1 && !args.includes('-r') ? undefined : 'xxd with an output file or -r writes files') },
  sort: { check: refuseOptions(['--output', '--compress-program', '--temporary-directory'], 'oT') },
  tree: { check: refuseOptions(['--fromfile'], 'o') },
  rg: { check: refuseOptions(['--pre', '--pre-glob', '--search-zip'], 'z') },
  fd: { check: refuseOptions(['--exec', '--exec-batch'], 'xX') },
  find: { check: findCheck },
  sed: { check: sedCheck },
  awk: { check: awkCheck }, gawk: { check: awkCheck }, mawk: { check: awkCheck },
  git: { check: gitCheck },
};

/** Why `argv` is not read-only, or undefined when it is. */
export function readOnlyVerdict(argv: ShellWord[]): string | undefined {
  const [program, ...rest] = argv;
  if (!program) return 'empty command';
  if (program.dynamic || program.glob) return 'the program name comes from an expansion';
  if (program.value.includes('/')) return 'a program given by path is not on the read-only list';
  const entry = Object.hasOwn(readOnlyPrograms, program.value) ? readOnlyPrograms[program.value] : undefined;
  if (!entry) return `${program.value} is not on the read-only list`;
  if (!entry.anyArguments && rest.some((word) => word.dynamic || word.glob)) {
    return `${program.value} has arguments from expansions or globs (a file name could become an option)`;
  }
  return entry.check?.(rest.map((word) => word.value));
}
