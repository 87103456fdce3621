import type { ShellWord } from './shell-words.js';

// `test -v 'a[$(cmd)]'` and `test -R` evaluate an array subscript, and bash runs the command
// substitution inside it. The other operators only compare strings, integers and files.
const subscriptOperators = new Set(['-v', '-R']);
const unaryOperators = new Set(['-a', '-b', '-c', '-d', '-e', '-f', '-g', '-h', '-k', '-p', '-r', '-s', '-t', '-u', '-w', '-x', '-G', '-L', '-N', '-O', '-S', '-z', '-n', '-o']);
const binaryOperators = new Set(['=', '==', '!=', '<', '>', '-nt', '-ot', '-ef', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-a', '-o']);

export const subscriptReason = 'test -v / -R evaluate an array subscript, and a subscript such as a[$(cmd)] runs cmd';

/**
 * `test ...` / `[ ... ]` as a command. A value known only at run time is accepted only where it
 * cannot become an operator: quoted (so it stays one word) and in an operand position of a two- or
 * three-word test, whose meaning POSIX fixes by position.
 */
export function testVerdict(words: ShellWord[]): string | undefined {
  if (words.some((word) => !word.dynamic && subscriptOperators.has(word.value))) return subscriptReason;
  if (words.every((word) => !word.dynamic && !word.glob)) return undefined;
  const unsafe = 'test with a run-time value where it could become an operator such as -v';
  if (words.some((word) => word.splits)) return unsafe;
  const [first, second] = words;
  if (words.length === 1) return undefined;
  if (words.length === 2 && first && !first.dynamic && (unaryOperators.has(first.value) || first.value === '!')) return undefined;
  if (words.length === 3 && second && !second.dynamic && binaryOperators.has(second.value)) return undefined;
  return unsafe;
}

/** `printf -v 'a[$(cmd)]' x` assigns through a subscript (runs cmd); the format and arguments are harmless. */
export function printfVerdict(words: ShellWord[]): string | undefined {
  const [first, second] = words;
  if (!first) return undefined;
  if (first.dynamic || first.splits) return 'printf with a run-time first word: it could become -v, which assigns a variable (and a[$(cmd)] runs cmd)';
  if (first.value === '--') return second && (second.dynamic || second.splits) ? 'printf with a run-time format after --' : undefined;
  if (first.value.startsWith('-')) return first.value.startsWith('-v') ? 'printf -v assigns a variable, and a subscript such as a[$(cmd)] runs cmd' : `printf option ${first.value} is not known to be read-only`;
  return undefined;
}

// xxd matches options by prefix (`-r`, `-rp`, `-revert` all revert), so every spelling is listed.
const xxdFlags = new Set(['-a', '-autoskip', '-b', '-bits', '-C', '-capitalize', '-e', '-E', '-EBCDIC', '-h', '-help', '-i', '-include', '-p', '-ps', '-postscript', '-plain', '-u', '-uppercase', '-v', '-version', '-d']);
const xxdValued = new Set(['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-n', '-name', '-o', '-s', '-seek', '-R']);

/** `xxd [options] [infile [outfile]]`: read-only only with at most one operand and without -r (revert writes binary). */
export function xxdVerdict(words: ShellWord[]): string | undefined {
  let operands = 0;
  for (let index = 0; index < words.length; index++) {
    const value = (words[index] as ShellWord).value;
    if (value.startsWith('-r')) return 'xxd -r turns a dump back into a binary file';
    if (value === '-' || !value.startsWith('-')) operands++;
    else if (xxdValued.has(value)) index++;
    else if (!xxdFlags.has(value) && !/^-[cglnos]-?(?:0x)?[0-9a-fA-F]+$/.test(value)) return `xxd option ${value} is not known to be read-only`;
  }
  return operands <= 1 ? undefined : 'xxd INFILE OUTFILE writes the second operand';
}
