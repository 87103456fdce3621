import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** Folders never offered as `@` completions: they are large and not what a prompt mentions. */
const skipped = new Set(['.git', 'node_modules', 'dist', 'build', '.next', 'coverage', '.cairn']);

/** The `@word` being typed at the end of the input, if any (`fix @src/a` gives `src/a`). */
export function mentionAt(input: string): string | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(input);
  return match ? match[1] : undefined;
}

/**
 * Workspace paths that complete `partial`: the entries of its folder whose names start with the
 * rest, folders with a trailing `/`, at most `limit`, sorted.
 */
export async function completePath(cwd: string, partial: string, limit = 20): Promise<string[]> {
  if (partial.includes('..')) return [];
  const slash = partial.lastIndexOf('/');
  const folder = slash < 0 ? '' : partial.slice(0, slash + 1);
  const start = slash < 0 ? partial : partial.slice(slash + 1);
  let entries: Array<{ name: string; isDirectory(): boolean }>;
  try {
    entries = await readdir(join(cwd, ...folder.split('/').filter(Boolean)), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(start) && !skipped.has(entry.name) && (start.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => `${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`.split(sep).join('/'))
    .sort()
    .slice(0, limit);
}

/** The input with its trailing `@partial` replaced by `@completion`. */
export function replaceMention(input: string, completion: string): string {
  return input.replace(/@([^\s@]*)$/, `@${completion}`);
}
