import { type OptionSpec, parseArguments } from './option-parser.js';

// sed is read-only only for scripts we can read completely: addresses, then printing, deleting from
// the stream, quitting, hold-space moves, and s/// without the `e` (execute) or `w` (write) flags.
const sedAddressPart = String.raw`(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]?)`;
const sedAddress = String.raw`(?:${sedAddressPart}(?:,(?:${sedAddressPart}|\+\d+|~\d+))?!?)?`;
const sedSubstitute = String.raw`s(.)(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gipIM0-9]*`;
const sedCommand = new RegExp(String.raw`^\s*${sedAddress}\s*(?:[pdqQ=lPnNhHgGxz]|${sedSubstitute})\s*$`);

function sedScriptReadOnly(script: string): boolean {
  return script.split(/[;\n]/).every((command) => command.trim() === '' || sedCommand.test(command));
}

const sedOptions: OptionSpec = {
  flags: 'nErszu',
  valued: 'el',
  long: ['--quiet', '--silent', '--regexp-extended', '--separate', '--null-data', '--unbuffered', '--posix', '--debug', '--sandbox', '--help', '--version'],
  longValued: ['--expression', '--line-length'],
};

export function sedVerdict(args: string[]): string | undefined {
  const outcome = parseArguments(args, sedOptions);
  if ('unknown' in outcome) {
    const name = outcome.unknown;
    const long = name.split('=')[0] as string;
    // GNU getopt takes abbreviations: `--in-pl` is `--in-place`.
    if (/^-[^-]*i/.test(name) || (long.length > 3 && '--in-place'.startsWith(long))) return 'sed -i edits files in place';
    if (/^-[^-]*f/.test(name) || (long.length > 3 && '--file'.startsWith(long))) return 'sed -f reads a script we cannot check';
    return `sed option ${name} is not known to be read-only`;
  }
  const { options, operands } = outcome.parsed;
  const scripts = options.filter((option) => option.name === '-e' || option.name === '--expression').map((option) => option.value ?? '');
  if (scripts.length === 0 && operands[0] !== undefined) scripts.push(operands[0]);
  const unreadable = scripts.find((script) => !sedScriptReadOnly(script));
  return unreadable === undefined ? undefined : `sed script "${unreadable}" may execute or write (only addresses with p, d, q, =, l, n, hold-space commands and s/// without e/w are read-only)`;
}

// awk runs programs through system(), pipes and getline, and writes with > / >>; gawk loads code with @load / @include.
const awkCodeRunning = /system|\||>|getline|@load|@include|ENVIRON/;

export function awkVerdict(args: string[]): string | undefined {
  const outcome = parseArguments(args, { valued: 'Fv' });
  if ('unknown' in outcome) return `awk option ${outcome.unknown} is not known to be read-only (-f, -e, -i, -l load code)`;
  const program = outcome.parsed.operands[0];
  if (program !== undefined && awkCodeRunning.test(program)) return 'awk program uses system(), pipes, getline or output redirection';
  return undefined;
}

/** True when an awk program can run other programs (for deny rules: the program it runs is unknown). */
export function awkProgramRunsCommands(program: string): boolean {
  return /system|\||getline|@load/.test(program);
}

/**
 * True when a sed script may run a shell command: the `e` command or the `e` flag of s///. A small
 * scanner walks the commands; anything it cannot follow counts as running commands (fail closed).
 */
export function sedScriptRunsCommands(script: string): boolean {
  let index = 0;
  const skipAddress = () => {
    const address = new RegExp(`^${sedAddress}`).exec(script.slice(index));
    index += address?.[0].length ?? 0;
  };
  const skipDelimited = (count: number): boolean => {
    const delimiter = script[index];
    if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false;
    index++;
    for (let seen = 0; seen < count; index++) {
      if (index >= script.length) return false;
      if (script[index] === '\\') index++;
      else if (script[index] === delimiter) seen++;
    }
    return true;
  };
  const restOfLine = () => {
    const end = script.indexOf('\n', index);
    index = end === -1 ? script.length : end;
  };
  while (index < script.length) {
    const character = script[index] as string;
    if (/[\s;{}]/.test(character)) {
      index++;
      continue;
    }
    skipAddress();
    while (/[ \t]/.test(script[index] ?? '')) index++;
    const command = script[index];
    index++;
    if (command === undefined) return false;
    if (command === 'e') return true;
    if (command === 's') {
      if (!skipDelimited(2)) return true;
      const flags = /^[^;\n}]*/.exec(script.slice(index))?.[0] ?? '';
      // A `w FILE` flag takes the rest of the line as the file name; anything before it is a flag.
      const beforeFile = flags.split('w')[0] ?? '';
      if (beforeFile.includes('e')) return true;
      if (flags.includes('w')) restOfLine();
      else index += flags.length;
    } else if (command === 'y') {
      if (!skipDelimited(2)) return true;
    } else if ('aicrRwW#'.includes(command)) {
      restOfLine(); // text or a file name: the rest of the line, `;` included
    } else if (':btT'.includes(command)) {
      while (index < script.length && !/[;\n]/.test(script[index] as string)) index++; // a label
    } else if ('qQlL'.includes(command)) {
      while (/[ \t\d]/.test(script[index] ?? '')) index++; // an optional exit code or line length
    } else if (!'pdDqQ=lPnNhHgGxzF!'.includes(command)) return true;
  }
  return false;
}
