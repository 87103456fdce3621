import { CairnApiError } from '../client/api-error.js';

/** The argument that says what a call does: the command, the path, the pattern. */
const mainArgumentKeys = ['command', 'path', 'target_file', 'pattern', 'glob_pattern', 'query', 'url', 'target_directory', 'description', 'name'];

export function mainArgument(args: unknown, max = 80): string {
  if (args === undefined || args === null) return '';
  if (typeof args !== 'object') return oneLine(String(args), max);
  const record = args as Record<string, unknown>;
  for (const key of mainArgumentKeys) if (typeof record[key] === 'string' && record[key]) return oneLine(record[key] as string, max);
  return '';
}

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Arguments as people read them: JSON indented, text as it is. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/** 950 → "950", 12 345 → "12.3k", 2 400 000 → "2.4M". */
export function compactNumber(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(value < 10_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** Cents as dollars, with more digits for the small sums one chat costs. */
export function dollars(cents: number): string {
  const value = cents / 100;
  return `$${value < 1 ? value.toFixed(value < 0.01 ? 4 : 3) : value.toFixed(2)}`;
}

export function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A failed request as one sentence for the user. */
export function errorText(error: unknown): string {
  if (error instanceof CairnApiError) {
    if (error.code === 'unauthorized') return 'The server refused the token. Open the address `cairn serve` printed (it carries the token) or set the right one.';
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Join class names, leaving out the false ones. */
export function classes(...names: Array<string | false | undefined>): string {
  return names.filter(Boolean).join(' ');
}
