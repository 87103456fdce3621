/** One unit of grep output, produced by either engine and rendered the way ripgrep prints it. */
export type GrepEntry =
  | { type: 'line'; path: string; lineNumber: number; isMatch: boolean; text: string }
  | { type: 'separator' }
  | { type: 'file'; path: string }
  | { type: 'count'; path: string; count: number };

export interface RenderLimits {
  maxLines: number;
  maxBytes: number;
  headLimit?: number;
}

export interface RenderedOutput {
  text: string;
  lines: number;
  /** Why output stopped before the end: the model's head_limit, or the tool's line/byte cap. */
  stoppedBy?: 'head_limit' | 'cap';
}

/**
 * ripgrep's `--no-heading --with-filename --line-number` format: `path:N:text` for matches,
 * `path-N-text` for context, `--` between non-adjacent groups, `path` or `path:count` in the other
 * modes. Separators are only printed between two printed lines, so dropping a file's lines (a
 * denied path) never leaves a doubled or dangling `--`.
 */
export function renderEntries(entries: Iterable<GrepEntry>, limits: RenderLimits): RenderedOutput {
  const out: string[] = [];
  let bytes = 0;
  let pendingSeparator = false;
  let printed = 0;
  for (const entry of entries) {
    if (entry.type === 'separator') {
      pendingSeparator = true;
      continue;
    }
    const line =
      entry.type === 'line' ? `${entry.path}${entry.isMatch ? ':' : '-'}${entry.lineNumber}${entry.isMatch ? ':' : '-'}${entry.text}`
        : entry.type === 'file' ? entry.path
          : `${entry.path}:${entry.count}`;
    // head_limit counts results (lines, files, counts), not separators.
    if (limits.headLimit !== undefined && printed >= limits.headLimit) return { text: out.join('\n'), lines: printed, stoppedBy: 'head_limit' };
    const addition = (pendingSeparator && out.length > 0 ? 3 : 0) + line.length + 1;
    if (printed >= limits.maxLines || bytes + addition > limits.maxBytes) return { text: out.join('\n'), lines: printed, stoppedBy: 'cap' };
    if (pendingSeparator && out.length > 0) out.push('--');
    pendingSeparator = false;
    out.push(line);
    bytes += addition;
    printed++;
  }
  return { text: out.join('\n'), lines: printed };
}

/**
 * rg's `--sort=path` order: a depth-first walk with the names of each folder compared bytewise,
 * which is bytewise order of the paths with `/` below every other byte (`a/b` before `a-b/c`).
 */
export function pathSortKey(path: string): Buffer {
  return Buffer.from(path.replaceAll('/', '\0'));
}

export function comparePaths(left: string, right: string): number {
  return Buffer.compare(pathSortKey(left), pathSortKey(right));
}

/**
 * Entries from a parallel (unsorted) rg run, put in the order `rg --sort=path` prints them. rg
 * prints each file's results together; they keep their order, and with context lines
 * (`separateFiles`) one `--` goes between two files, as rg prints it.
 */
export function sortEntriesByPath(entries: GrepEntry[], separateFiles: boolean): GrepEntry[] {
  const groups = new Map<string, GrepEntry[]>();
  let current: GrepEntry[] | undefined;
  for (const entry of entries) {
    if (entry.type === 'separator') {
      current?.push(entry);
      continue;
    }
    current = groups.get(entry.path);
    if (!current) {
      current = [];
      groups.set(entry.path, current);
    }
    current.push(entry);
  }
  const keyed = [...groups.entries()].map(([path, group]) => ({ key: pathSortKey(path), group }));
  keyed.sort((left, right) => Buffer.compare(left.key, right.key));
  const sorted: GrepEntry[] = [];
  for (const { group } of keyed) {
    let first = 0;
    let last = group.length;
    while (first < last && group[first]?.type === 'separator') first++;
    while (last > first && group[last - 1]?.type === 'separator') last--;
    if (separateFiles && sorted.length > 0) sorted.push({ type: 'separator' });
    for (let index = first; index < last; index++) sorted.push(group[index] as GrepEntry);
  }
  return sorted;
}
