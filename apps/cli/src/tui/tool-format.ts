import { parsePatch, type StructuredPatch, structuredPatch } from 'diff';

/** The argument that says what a call does, per tool: the command, the path, the pattern. */
const mainArgumentKeys = ['command', 'path', 'target_file', 'pattern', 'glob_pattern', 'query', 'url', 'target_directory', 'mode', 'name', 'description'];

/** `npm test`, `src/a.ts`: one line, at most `max` characters. */
export function mainArgument(args: unknown, max = 80): string {
  if (typeof args !== 'object' || args === null) return oneLine(String(args ?? ''), max);
  const record = args as Record<string, unknown>;
  for (const key of mainArgumentKeys) if (typeof record[key] === 'string' && record[key]) return oneLine(record[key] as string, max);
  return oneLine(JSON.stringify(args), max);
}

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What the status line names while a call runs: `npm test` for the shell, else `read_file src/a.ts`. */
export function runningLabel(name: string, args: unknown): string {
  const argument = mainArgument(args, 50);
  if (name === 'run_terminal_cmd' || name === 'shell') return argument || name;
  return argument ? `${name} ${argument}` : name;
}

export interface DiffLine {
  kind: 'add' | 'remove' | 'context' | 'hunk' | 'file';
  text: string;
}

/**
 * The change a file tool made, as unified diff lines: search_replace from old_string/new_string,
 * write from its contents (all added; the old text is not in the call), edit_file from the diff it
 * reports (else its sketch).
 * Undefined for calls that are not edits.
 */
export function editDiff(name: string, args: unknown, structured?: unknown, maxLines = 40): DiffLine[] | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  // edit_file reports the real diff of its merged sketch (tools-fs): use it when it is there.
  const reported = (structured as { diff?: unknown } | undefined)?.diff;
  const shown = typeof reported === 'string' ? reportedDiff(reported, maxLines) : undefined;
  if (shown) return shown;
  const record = args as Record<string, unknown>;
  const path = typeof record.path === 'string' ? record.path : typeof record.target_file === 'string' ? record.target_file : undefined;
  if (!path) return undefined;
  let before: string;
  let after: string;
  if (name === 'search_replace' && typeof record.old_string === 'string' && typeof record.new_string === 'string') {
    before = record.old_string;
    after = record.new_string;
  } else if (name === 'write' && typeof record.contents === 'string') {
    before = '';
    after = record.contents;
  } else if (name === 'edit_file' && typeof record.code_edit === 'string') {
    before = '';
    after = record.code_edit;
  } else return undefined;
  return diffLinesOf([structuredPatch(path, path, ensureNewline(before), ensureNewline(after), '', '', { context: 2 })], maxLines);
}

/** A diff a tool reported, as lines; undefined when it is not a patch with changes (then the call's own text is shown). */
function reportedDiff(patch: string, maxLines: number): DiffLine[] | undefined {
  try {
    const parsed = parsePatch(patch);
    return parsed[0]?.hunks.some((hunk) => hunk.lines.length > 0) ? diffLinesOf(parsed, maxLines) : undefined;
  } catch {
    return undefined;
  }
}

function diffLinesOf(patches: StructuredPatch[], maxLines: number): DiffLine[] | undefined {
  const patch = patches[0];
  if (!patch) return undefined;
  const lines: DiffLine[] = [{ kind: 'file', text: patch.newFileName ?? patch.oldFileName ?? '' }];
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      lines.push({ kind: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'remove' : 'context', text: line });
    }
  }
  if (lines.length <= maxLines + 1) return lines;
  return [...lines.slice(0, maxLines + 1), { kind: 'hunk', text: `… ${lines.length - maxLines - 1} more lines` }];
}

const ensureNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
