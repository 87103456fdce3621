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
