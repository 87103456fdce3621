import { parseArguments } from './option-parser.js';
import { printfVerdict, testVerdict, xxdVerdict } from './read-only-builtins.js';
import { findVerdict } from './read-only-find.js';
import { gitVerdict } from './read-only-git.js';
import { type ReadOnlyProgram, simpleReadOnlyPrograms } from './read-only-programs.js';
import { awkVerdict, sedVerdict } from './read-only-text-tools.js';
import type { ShellWord } from './shell-words.js';

export type { ReadOnlyProgram } from './read-only-programs.js';

const values = (words: ShellWord[]) => words.map((word) => word.value);
const bracketTest = (words: ShellWord[]) => (words.at(-1)?.value === ']' && !words.at(-1)?.dynamic ? testVerdict(words.slice(0, -1)) : '[ without a closing ]');

/**
 * The conservative allow-list of read-only programs. A program not listed here is never read-only,
 * and a listed one only with the options and operand forms its entry understands.
 */
export const readOnlyPrograms: Record<string, ReadOnlyProgram> = {
  ...simpleReadOnlyPrograms,
  test: { custom: testVerdict, anyArguments: true },
  '[': { custom: bracketTest, anyArguments: true },
  printf: { custom: printfVerdict, anyArguments: true },
  xxd: { custom: xxdVerdict },
  find: { custom: (words) => findVerdict(values(words)) },
  sed: { custom: (words) => sedVerdict(values(words)) },
  awk: { custom: (words) => awkVerdict(values(words)) },
  gawk: { custom: (words) => awkVerdict(values(words)) },
  mawk: { custom: (words) => awkVerdict(values(words)) },
  git: { custom: (words) => gitVerdict(values(words)) },
};

/** Why `argv` is not read-only, or undefined when it is. */
export function readOnlyVerdict(argv: ShellWord[]): string | undefined {
  const [program, ...rest] = argv;
  if (!program) return 'empty command';
  if (program.dynamic || program.glob) return 'the program name comes from an expansion';
  if (program.value.includes('/')) return 'a program given by path is not on the read-only list';
  const entry = Object.hasOwn(readOnlyPrograms, program.value) ? readOnlyPrograms[program.value] : undefined;
  if (!entry) return `${program.value} is not on the read-only list`;
  // The custom checks of test and printf look at run-time words themselves.
  if (!entry.anyArguments && rest.some((word) => word.dynamic || word.glob)) {
    return `${program.value} has arguments from expansions or globs (a file name could become an option)`;
  }
  if (entry.custom) return entry.custom(rest);
  if (entry.options === 'any' || entry.options === undefined) return undefined;
  const outcome = parseArguments(values(rest), entry.options);
  if ('unknown' in outcome) return unknownOptionReason(program.value, outcome.unknown, entry);
  return entry.check?.(outcome.parsed);
}

function unknownOptionReason(program: string, option: string, entry: ReadOnlyProgram): string {
  const name = option.split('=')[0] as string;
  const refused = entry.refused ?? {};
  const direct = refused[name];
  if (direct) return direct;
  // GNU getopt accepts unambiguous abbreviations: `--out=FILE` is `--output=FILE`.
  const abbreviated = name.length > 3 ? Object.keys(refused).find((key) => key.startsWith('--') && key.startsWith(name)) : undefined;
  if (abbreviated) return `${name} abbreviates ${abbreviated}: ${refused[abbreviated]}`;
  if (/^-[^-]/.test(name)) {
    for (const letter of name.slice(1)) {
      const reason = refused[`-${letter}`];
      if (reason) return reason;
    }
  }
  return `${program} option ${option} is not known to be read-only (only the options listed for ${program} are; abbreviations are not accepted)`;
}
