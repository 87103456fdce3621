import { type InnerCommand, joinedScript, literalWord, scriptFrom, unknownCommand } from './inner-command.js';
import { awkProgramRunsCommands, sedScriptRunsCommands } from './read-only-text-tools.js';
import { namesStdin } from './shell-invocation.js';
import type { ShellWord } from './shell-words.js';

/**
 * Interpreters and tools that run code given on the command line. That code can run any program,
 * so for deny rules its program is unknown. Without a script operand an interpreter reads its code
 * from stdin, which the analyser resolves (a pipe into `python3` is unknown code too).
 */
interface Interpreter {
  /** Options that take the program text (`-c`, `-e`, `--eval`). */
  inline: readonly string[];
  /** Short-option letters that take the program text inside a cluster (`perl -ne`, `python -Sc`). */
  inlineLetters?: string;
  /** Options followed by a value that is not code (`-m module`, `-r lib`). */
  valued?: readonly string[];
}

const python: Interpreter = { inline: ['-c'], inlineLetters: 'c', valued: ['-m', '-W', '-X', '--check-hash-based-pycs'] };
const node: Interpreter = { inline: ['-e', '--eval', '-p', '--print'], valued: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file'] };
// perl -M inserts its value into `use ...;`, which can carry code (`-M'POSIX; system q(rm x)'`).
const perl: Interpreter = { inline: ['-e', '-E', '-M', '-m'], inlineLetters: 'eEMm', valued: ['-I', '-x'] };

const interpreters: Record<string, Interpreter> = {
  python, python2: python, python3: python, pypy: python, pypy3: python,
  node, nodejs: node, bun: node,
  perl,
  ruby: { inline: ['-e'], inlineLetters: 'e', valued: ['-r', '-I', '-C'] },
  php: { inline: ['-r', '-R', '-B', '-E', '-F'], inlineLetters: 'rRBEF', valued: ['-c', '-d', '-z'] },
  lua: { inline: ['-e'], inlineLetters: 'e', valued: ['-l'] }, luajit: { inline: ['-e'], inlineLetters: 'e', valued: ['-l', '-j', '-O'] },
  Rscript: { inline: ['-e'] }, julia: { inline: ['-e', '-E', '--eval', '--print'] }, osascript: { inline: ['-e'] },
  pwsh: { inline: ['-c', '-command', '-encodedcommand', '-e', '-ec'] }, powershell: { inline: ['-c', '-command', '-encodedcommand', '-e', '-ec'] },
  groovy: { inline: ['-e'] }, tclsh: { inline: [] }, wish: { inline: [] },
};

export function interpreterInner(program: string, words: ShellWord[]): InnerCommand[] | undefined {
  const spec = Object.hasOwn(interpreters, program) ? interpreters[program] : /^python\d+(?:\.\d+)?$/.test(program) ? python : undefined;
  if (!spec) return undefined;
  const unknown = [unknownCommand(program, `${program} runs code given on the command line, and that code can run any program`)];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as ShellWord;
    const value = program.startsWith('pw') || program === 'powershell' ? word.value.toLowerCase() : word.value;
    const name = value.split('=')[0] as string;
    if (word.dynamic && value.startsWith('-')) return unknown;
    if (spec.inline.includes(name)) return unknown;
    if (spec.inlineLetters && /^-[^-]/.test(value) && [...value.slice(1)].some((letter) => spec.inlineLetters?.includes(letter))) return unknown;
    if (value === '-m' && spec === python) return []; // runs a module, which reads stdin as data
    if (spec.valued?.includes(value)) index++;
    else if (value === '-' || namesStdin(value)) return [{ kind: 'stdin', via: program, language: 'other' }];
    else if (!value.startsWith('-')) return program === 'bun' && (value === 'x' || value === 'exec') ? [{ kind: 'argv', words: words.slice(index + 1), via: 'bun x' }] : [];
  }
  return [{ kind: 'stdin', via: program, language: 'other' }];
}

/** awk's program (the first operand, or -e / --source text): code that may call system() or pipes. */
export function awkInner(program: string, words: ShellWord[]): InnerCommand[] {
  let fromFile = false;
  const texts: ShellWord[] = [];
  let index = 0;
  for (; index < words.length; index++) {
    const value = (words[index] as ShellWord).value;
    if (value === '--') {
      index++;
      break;
    }
    if (!value.startsWith('-') || value === '-') break;
    if (value === '-f' || value === '--file' || value.startsWith('-f')) fromFile = true;
    if (value === '-e' || value === '--source') texts.push(words[index + 1] ?? literalWord(''));
    if (['-f', '-F', '-v', '-e', '--file', '--source', '-i', '--include', '-l', '--load'].includes(value)) index++;
    if (['-i', '--include', '-l', '--load'].includes(value) || value.startsWith('-l')) return [unknownCommand(program, `${program} loads code or extensions`)];
  }
  if (!fromFile && texts.length === 0 && words[index]) texts.push(words[index] as ShellWord);
  const runs = texts.some((text) => text.dynamic || awkProgramRunsCommands(text.value));
  return runs ? [unknownCommand(program, `${program}'s program can run commands (system(), pipes, getline), so what it runs is not known`)] : [];
}

/** sed's `e` command and `s///e` flag run shell commands. */
export function sedInner(words: ShellWord[]): InnerCommand[] {
  const scripts: ShellWord[] = [];
  let fromFile = false;
  let index = 0;
  for (; index < words.length; index++) {
    const word = words[index] as ShellWord;
    const value = word.value;
    if (value === '--') {
      index++;
      break;
    }
    if (value.startsWith('--expression')) scripts.push(value.includes('=') ? { ...word, value: value.slice(value.indexOf('=') + 1) } : (words[++index] ?? literalWord('')));
    else if (value.startsWith('--file')) {
      fromFile = true;
      if (!value.includes('=')) index++;
    } else if (/^-[^-]/.test(value)) {
      for (let position = 1; position < value.length; position++) {
        const letter = value[position];
        const attached = value.slice(position + 1);
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          if (letter === 'f') fromFile = true;
          if (letter === 'e') scripts.push(attached ? { ...word, value: attached } : (words[index + 1] ?? literalWord('')));
          if (!attached) index++;
          break;
        }
        if (letter === 'i') break; // -iSUFFIX
      }
    } else if (!value.startsWith('-')) break;
  }
  if (scripts.length === 0 && !fromFile && words[index]) scripts.push(words[index] as ShellWord);
  const runs = scripts.some((script) => script.dynamic || sedScriptRunsCommands(script.value));
  return runs ? [unknownCommand('sed', 'the sed script runs shell commands (the e command or the e flag of s///)')] : [];
}

const optionRunners: Record<string, { long: RegExp; letters?: string; via: string }> = {
  tar: { long: /^--(?:to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command|rmt-command)/, letters: 'IF', via: 'tar' },
  rsync: { long: /^--(?:rsh|rsync-path)/, letters: 'e', via: 'rsync' },
  zip: { long: /^--unzip-command|^-TT/, via: 'zip' },
  man: { long: /^--(?:pager|html)/, letters: 'PH', via: 'man' },
  make: { long: /^--eval/, letters: 'E', via: 'make' },
  gmake: { long: /^--eval/, letters: 'E', via: 'make' },
  vim: { long: /^(?:\+|--cmd|-c$|-S$)/, via: 'vim' },
  vi: { long: /^(?:\+|--cmd|-c$|-S$)/, via: 'vi' },
  nvim: { long: /^(?:\+|--cmd|-c$|-S$|-l$)/, via: 'nvim' },
  ex: { long: /^(?:\+|--cmd|-c$|-S$)/, via: 'ex' },
  view: { long: /^(?:\+|--cmd|-c$|-S$)/, via: 'view' },
  emacs: { long: /^-?-(?:eval|funcall|load|f$|l$)/, via: 'emacs' },
  gdb: { long: /^-?-(?:ex|iex|eval-command|init-eval-command|x|command)(?:=|$)/, via: 'gdb' },
};

/** Tools with an option whose value is a command they run (`tar --to-command`, `rsync -e`, `vim -c '!rm x'`). */
export function optionRunnerInner(program: string, words: ShellWord[]): InnerCommand[] | undefined {
  const spec = optionRunners[program];
  if (!spec) return undefined;
  const runs = words.some((word, index) => {
    const value = word.value;
    if (spec.long.test(value)) return true;
    // tar also takes bundled options without a dash as its first word (`tar xIf zstd a.tar`).
    const cluster = /^-[^-]/.test(value) || (program === 'tar' && index === 0 && !value.startsWith('-'));
    return cluster && spec.letters !== undefined && [...value.replace(/^-/, '')].some((letter) => spec.letters?.includes(letter));
  });
  return runs ? [unknownCommand(spec.via, `${spec.via} is given a command to run through an option, so what runs is not known`)] : [];
}

/** Shell builtins that run code from their arguments. */
export function builtinInner(program: string, words: ShellWord[]): InnerCommand[] | undefined {
  switch (program) {
    case 'eval': {
      const script = joinedScript(words, 'eval');
      return script ? [script] : [];
    }
    case 'trap': {
      const start = words[0]?.value === '--' ? 1 : 0;
      const action = words[start];
      if (!action || action.value === '-' || action.value.startsWith('-') || words.length - start < 2) return [];
      const script = scriptFrom(action, 'trap');
      return script ? [script] : [];
    }
    case '.':
    case 'source': {
      const file = words[0]?.value === '--' ? words[1] : words[0];
      if (!file) return [];
      if (file.dynamic) return [unknownCommand(program, `${program} runs a file named only at run time`)];
      return namesStdin(file.value) ? [{ kind: 'stdin', via: program, language: 'shell' }] : [];
    }
    case 'alias':
      return words.flatMap((word) => {
        const equals = word.value.indexOf('=');
        if (equals <= 0) return [];
        const script = scriptFrom(word.dynamic ? word : literalWord(word.value.slice(equals + 1)), 'alias');
        return script ? [script] : [];
      });
    case 'hash': {
      const pathIndex = words.findIndex((word) => /^-[a-z]*p$/.test(word.value));
      const path = pathIndex === -1 ? undefined : words[pathIndex + 1];
      return path ? [{ kind: 'argv', words: [path], via: 'hash -p' }] : [];
    }
    case 'mapfile':
    case 'readarray':
    case 'compgen':
    case 'complete': {
      const callback = words.findIndex((word) => word.value === '-C');
      const script = callback === -1 ? undefined : scriptFrom(words[callback + 1], program);
      return script ? [script] : [];
    }
    case 'enable':
      return words.some((word) => /^-[a-z]*f/.test(word.value)) ? [unknownCommand('enable', 'enable -f loads a builtin from a shared library')] : [];
    case 'parallel':
      return [unknownCommand('parallel', 'parallel builds and runs commands from its input and arguments')];
    default:
      return undefined;
  }
}
