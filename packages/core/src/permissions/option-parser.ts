/**
 * The options a program is known to accept, for reading its argv the way getopt does. Only exact
 * names count: GNU and git accept unambiguous abbreviations of long options (`--out=` is
 * `--output=`), so anything not spelled out here is unknown, and unknown means "not understood".
 */
export interface OptionSpec {
  /** Short options without a value (`-l`, clustered as `-la`). */
  flags?: string;
  /** Short options with a value (`-n 5`, `-n5`). */
  valued?: string;
  /** Short options whose value, if any, is attached (`xargs -i`, `-i{}`). */
  optionalAttached?: string;
  /** Long options without a value. */
  long?: readonly string[];
  /** Long options with a required value (`--lines=5`, `--lines 5`). */
  longValued?: readonly string[];
  /** Long options with an optional value, given only as `--color` or `--color=auto`. */
  longOptional?: readonly string[];
  /** `-5` is an option (`head -5`, `grep -3`). */
  numeric?: boolean;
  /** Options end at the first operand, as for POSIX utilities and for wrappers (`nice -n 5 cmd -x`). */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** `-n` or `--lines`. */
  name: string;
  value?: string;
}

export interface ParsedArguments {
  options: ParsedOption[];
  operands: string[];
  /** Index in `args` of the first operand that ended option parsing (with `stopAtOperand`), else args.length. */
  rest: number;
}

export type ParseOutcome = { parsed: ParsedArguments } | { unknown: string };

/** Reads `args` (the words after the program) with `spec`; the first word not understood is returned as `unknown`. */
export function parseArguments(args: readonly string[], spec: OptionSpec): ParseOutcome {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      return { parsed: { options, operands, rest: spec.stopAtOperand ? index + 1 : args.length } };
    }
    if (arg === '-' || !arg.startsWith('-')) {
      if (spec.stopAtOperand) {
        operands.push(...args.slice(index));
        return { parsed: { options, operands, rest: index } };
      }
      operands.push(arg);
      continue;
    }
    const consumed = arg.startsWith('--') ? readLong(arg, args[index + 1], spec, options) : readShort(arg, args[index + 1], spec, options);
    if (consumed === undefined) return { unknown: arg };
    index += consumed;
  }
  return { parsed: { options, operands, rest: args.length } };
}

/** Returns how many following words the option consumed (0 or 1), or undefined when it is unknown. */
function readLong(arg: string, next: string | undefined, spec: OptionSpec, options: ParsedOption[]): number | undefined {
  const equals = arg.indexOf('=');
  const name = equals === -1 ? arg : arg.slice(0, equals);
  if (equals !== -1) {
    if (!spec.longValued?.includes(name) && !spec.longOptional?.includes(name)) return undefined;
    options.push({ name, value: arg.slice(equals + 1) });
    return 0;
  }
  if (spec.long?.includes(name) || spec.longOptional?.includes(name)) {
    options.push({ name });
    return 0;
  }
  if (spec.longValued?.includes(name) && next !== undefined) {
    options.push({ name, value: next });
    return 1;
  }
  return undefined;
}

function readShort(arg: string, next: string | undefined, spec: OptionSpec, options: ParsedOption[]): number | undefined {
  if (spec.numeric && /^-\d+$/.test(arg)) {
    options.push({ name: '-#', value: arg.slice(1) });
    return 0;
  }
  for (let position = 1; position < arg.length; position++) {
    const letter = arg[position] as string;
    const attached = arg.slice(position + 1);
    if (spec.flags?.includes(letter)) {
      options.push({ name: `-${letter}` });
      continue;
    }
    if (spec.optionalAttached?.includes(letter)) {
      options.push(attached ? { name: `-${letter}`, value: attached } : { name: `-${letter}` });
      return 0;
    }
    if (spec.valued?.includes(letter)) {
      if (attached) {
        options.push({ name: `-${letter}`, value: attached });
        return 0;
      }
      if (next === undefined) return undefined;
      options.push({ name: `-${letter}`, value: next });
      return 1;
    }
    return undefined;
  }
  return 0;
}
