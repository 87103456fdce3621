import { parsePatch, type StructuredPatch, structuredPatch } from 'diff';

export interface DiffLine {
  kind: 'add' | 'remove' | 'context' | 'hunk';
  text: string;
}

export interface EditDiff {
  path: string;
  lines: DiffLine[];
  /** Computed from the call's arguments (a snippet, not the whole file), not reported by the tool. */
  fromArgs?: boolean;
  /** The tool left later hunks out, or this view did. */
  truncated?: boolean;
}

const maxLines = 400;

interface EditCall {
  name: string;
  toolType: string;
  args?: unknown;
  structuredContent?: unknown;
}

/**
 * The change an edit tool made, as unified diff lines. edit_file reports the real diff of its
 * merged sketch in `structuredContent {path, diff}`: used when present. Otherwise computed from the
 * arguments: search_replace old → new, write as all-added (the old text is not in the call),
 * edit_file's sketch as added. Undefined for calls that are not edits.
 */
export function editDiffOf(call: EditCall): EditDiff | undefined {
  const reported = reportedDiff(call.structuredContent);
  if (reported) return reported;
  if (typeof call.args !== 'object' || call.args === null) return undefined;
  const args = call.args as Record<string, unknown>;
  const path = typeof args.path === 'string' ? args.path : typeof args.target_file === 'string' ? args.target_file : undefined;
  if (!path) return undefined;
  const change = beforeAfter(call.name, args);
  if (!change) return undefined;
  const patch = structuredPatch(path, path, withNewline(change.before), withNewline(change.after), '', '', { context: 3 });
  return { ...linesOf(patch), path, fromArgs: true };
}

function beforeAfter(name: string, args: Record<string, unknown>): { before: string; after: string } | undefined {
  if (name === 'search_replace' && typeof args.old_string === 'string' && typeof args.new_string === 'string') return { before: args.old_string, after: args.new_string };
  if (name === 'write' && typeof args.contents === 'string') return { before: '', after: args.contents };
  if (name === 'edit_file' && typeof args.code_edit === 'string') return { before: '', after: args.code_edit };
  return undefined;
}

function reportedDiff(structured: unknown): EditDiff | undefined {
  if (typeof structured !== 'object' || structured === null) return undefined;
  const { path, diff, truncated } = structured as { path?: unknown; diff?: unknown; truncated?: unknown };
  if (typeof diff !== 'string') return undefined;
  try {
    const patch = parsePatch(diff)[0];
    if (!patch?.hunks.some((hunk) => hunk.lines.length > 0)) return undefined;
    const shown = linesOf(patch);
    const name = typeof path === 'string' ? path : stripPrefix(patch.newFileName ?? patch.oldFileName ?? '');
    return { ...shown, path: name, ...(truncated === true ? { truncated: true } : {}) };
  } catch {
    return undefined;
  }
}

function linesOf(patch: StructuredPatch): { lines: DiffLine[]; truncated?: boolean } {
  const lines: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      // "\ No newline at end of file" says nothing a reader of the change needs.
      if (line.startsWith('\\')) continue;
      lines.push({ kind: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'remove' : 'context', text: line });
    }
  }
  return lines.length > maxLines ? { lines: lines.slice(0, maxLines), truncated: true } : { lines };
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
const stripPrefix = (name: string) => name.replace(/^[ab]\//, '');
