import { formatPatch, structuredPatch } from 'diff';
import { toLf } from './text-codec.js';

/** Most diff lines kept in a result's structuredContent; later hunks are left out (`truncated`). */
const maxDiffLines = 400;

/**
 * The unified diff of one edit, for UIs (the result's `structuredContent`; the model reads only the
 * message). Line endings are compared as LF. A long diff keeps whole hunks up to `maxDiffLines`, so
 * what is kept is still a valid patch.
 */
export function unifiedDiff(displayPath: string, before: string | null, after: string): { diff: string; truncated?: true } {
  const patch = structuredPatch(displayPath, displayPath, toLf(before ?? ''), toLf(after), '', '', { context: 3 });
  let lines = 0;
  const kept = patch.hunks.filter((hunk) => (lines += hunk.lines.length + 1) <= maxDiffLines);
  const diff = formatPatch({ ...patch, hunks: kept });
  return kept.length < patch.hunks.length ? { diff, truncated: true } : { diff };
}
