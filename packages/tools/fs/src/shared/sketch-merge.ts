import { ToolError } from '@cairn/core';

/**
 * A line that stands for unchanged code: a comment in any common syntax (`//`, `#`, `--`, `;`,
 * `/* *\/`, `<!-- -->`, `{/* *\/}`) whose text starts with `...` and says "existing code" (also
 * "unchanged code", "rest of the code/file").
 */
const markerPattern = /^(?:\/\/+|#+|--+|;+|\/\*+|<!--|\{\s*\/\*+|\(\*)\s*(?:\.{3}|…)\s*(?:existing code|unchanged code|rest of (?:the )?(?:code|file))\b.*$/i;

export function isExistingCodeMarker(line: string): boolean {
  return markerPattern.test(line.trim());
}

interface Segment {
  lines: string[];
  /** No marker before it: it starts at the top of the file. */
  attachStart: boolean;
  /** No marker after it: it runs to the end of the file. */
  attachEnd: boolean;
  /** Indentation of the marker right before it (how deep in a block the elided code sits). */
  markerIndent: number | undefined;
  /** Indentation of the marker right after it. */
  markerIndentAfter: number | undefined;
  /** Blank lines separated it from the marker before it (kept when it is inserted as new code). */
  leadingBlank: boolean;
}

const useSearchReplace = 'Use search_replace with the exact text to change instead, or include more unchanged lines around the edit.';

function fail(message: string): never {
  throw new ToolError(`edit_file could not place the sketch: ${message} ${useSearchReplace}`);
}

const trimmed = (line: string) => line.trim();
const indentOf = (line: string) => line.length - line.trimStart().length;
const isBlank = (line: string) => line.trim() === '';
const quote = (line: string) => JSON.stringify(line.trim().slice(0, 80));

/** Split a sketch at its markers; blank lines right next to a marker are layout, not content. */
export function parseSketch(sketch: string): { segments: Segment[]; markerCount: number } {
  const lines = sketch.split('\n');
  const groups: string[][] = [[]];
  const markerIndents: Array<number | undefined> = [undefined];
  let markerCount = 0;
  for (const line of lines) {
    if (isExistingCodeMarker(line)) {
      markerCount++;
      groups.push([]);
      markerIndents.push(indentOf(line));
    } else {
      groups[groups.length - 1]!.push(line);
    }
  }
  const segments: Segment[] = [];
  groups.forEach((group, index) => {
    let start = 0;
    let end = group.length;
    const hasMarkerBefore = index > 0;
    const hasMarkerAfter = index < groups.length - 1;
    if (hasMarkerBefore) while (start < end && isBlank(group[start]!)) start++;
    if (hasMarkerAfter) while (end > start && isBlank(group[end - 1]!)) end--;
    // A sketch ending in a newline leaves one empty line at the very end: not content.
    if (!hasMarkerAfter && end > start && group[end - 1] === '') end--;
    const content = group.slice(start, end);
    if (content.some((line) => !isBlank(line))) {
      segments.push({
        lines: content,
        attachStart: !hasMarkerBefore,
        attachEnd: !hasMarkerAfter,
        markerIndent: markerIndents[index],
        markerIndentAfter: markerIndents[index + 1],
        leadingBlank: start > 0,
      });
    }
  });
  return { segments, markerCount };
}

function lineNumbers(indices: number[]): string {
  return indices.slice(0, 8).map((index) => index + 1).join(', ');
}

/** Where a segment's first line sits in the original: unique, or the one with the longest matching context. */
function findStartAnchor(original: string[], segment: string[], from: number): number | undefined {
  const first = trimmed(segment[0]!);
  const candidates: Array<{ index: number; score: number }> = [];
  for (let index = from; index < original.length; index++) {
    if (trimmed(original[index]!) !== first) continue;
    let score = 1;
    while (score < segment.length && index + score < original.length && trimmed(segment[score]!) === trimmed(original[index + score]!)) score++;
    candidates.push({ index, score });
  }
  if (candidates.length === 0) return undefined;
  const best = Math.max(...candidates.map((candidate) => candidate.score));
  const top = candidates.filter((candidate) => candidate.score === best);
  if (top.length > 1) {
    fail(`the line ${quote(first)} matches ${top.length} places (lines ${lineNumbers(top.map((candidate) => candidate.index))}), so the edit is ambiguous.`);
  }
  return top[0]!.index;
}

/** End of the indented block opened at `start` (exclusive), without its trailing blank lines. */
function blockEnd(original: string[], start: number, limit: number): number {
  const baseIndent = indentOf(original[start]!);
  let end = start + 1;
  for (let index = start + 1; index < limit; index++) {
    const line = original[index]!;
    if (isBlank(line)) continue;
    if (indentOf(line) <= baseIndent) break;
    end = index + 1;
  }
  return end;
}

/**
 * Where a segment that starts at `start` ends (exclusive). Its last line is looked up after the
 * start, before `limit`: an occurrence at the same relative indentation wins (the closing brace of
 * the block the segment opened), then the longest matching context, then the nearest. A last line
 * that closes a bracket opened by the segment's own new code is new code, not an anchor.
 * Without an anchor at the end, the segment replaces the indented block its first line opens (a
 * Python body) — unless the marker after it sits inside that block: then that marker keeps the
 * block's rest and the segment ends at its first line (an insertion at the top of the block).
 */
function findEnd(original: string[], segment: Segment, start: number, limit: number, startMatches: boolean): number {
  const lines = segment.lines;
  if (startMatches && lines.length === 1) return start + 1;
  const last = lines[lines.length - 1]!;
  const wantedIndent = indentOf(last) - indentOf(lines[0]!);
  const candidates: Array<{ index: number; score: number; indentMatches: boolean }> = [];
  const lastIsNewCode = lines.length > 2 && bracketBalance(lines.slice(1, -1)) > 0;
  for (let index = startMatches ? start + 1 : start; index < limit && !lastIsNewCode; index++) {
    if (trimmed(original[index]!) !== trimmed(last)) continue;
    let score = 1;
    while (score < lines.length - 1 && index - score >= start && trimmed(lines[lines.length - 1 - score]!) === trimmed(original[index - score]!)) {
      score++;
    }
    candidates.push({ index, score, indentMatches: indentOf(original[index]!) - indentOf(original[start] ?? '') === wantedIndent });
  }
  if (candidates.length === 0) {
    if (!startMatches) return start; // pinned to the top with new first and last lines: an insertion
    const markerInside = segment.markerIndentAfter !== undefined && segment.markerIndentAfter > indentOf(original[start]!);
    return markerInside ? start + 1 : Math.min(blockEnd(original, start, limit), limit);
  }
  const pool = candidates.some((candidate) => candidate.indentMatches) ? candidates.filter((candidate) => candidate.indentMatches) : candidates;
  const best = Math.max(...pool.map((candidate) => candidate.score));
  return pool.find((candidate) => candidate.score === best)!.index + 1;
}

/** True when the next non-blank line is indented deeper: the line opens a block (`class A:`, `func f() {`). */
function opensBlock(original: string[], index: number): boolean {
  for (let next = index + 1; next < original.length; next++) {
    if (!isBlank(original[next]!)) return indentOf(original[next]!) > indentOf(original[index]!);
  }
  return false;
}

/**
 * For a segment whose first line is new: anchor it by its last line instead, the nearest occurrence
 * at the same indentation (`}` closing the class a new method goes into). With no anchored segment
 * before it, that occurrence must be unique.
 */
function anchorByLastLine(original: string[], segment: string[], from: number, hasPrevious: boolean): { start: number; end: number } | undefined {
  if (segment.length < 2) return undefined;
  const last = segment[segment.length - 1]!;
  const candidates: number[] = [];
  for (let index = from; index < original.length; index++) {
    if (trimmed(original[index]!) === trimmed(last) && indentOf(original[index]!) === indentOf(last)) candidates.push(index);
  }
  if (candidates.length === 0) return undefined;
  if (!hasPrevious && candidates.length > 1) {
    fail(`the region ending with ${quote(last)} starts with new code and its last line matches ${candidates.length} places (lines ${lineNumbers(candidates)}), so the edit is ambiguous.`);
  }
  const end = candidates[0]!;
  let run = 1;
  while (run < segment.length - 1 && end - run >= from && trimmed(segment[segment.length - 1 - run]!) === trimmed(original[end - run]!)) run++;
  // The matched tail must not be needed to close a bracket the new code opened (a new method's "}").
  while (run > 1 && bracketBalance(segment.slice(0, segment.length - run)) > 0) run--;
  return { start: end - run + 1, end: end + 1 };
}

/** Opening minus closing brackets, a rough count (strings and comments are not parsed). */
function bracketBalance(lines: string[]): number {
  let balance = 0;
  for (const line of lines) {
    for (const char of line) {
      if (char === '{' || char === '(' || char === '[') balance++;
      else if (char === '}' || char === ')' || char === ']') balance--;
    }
  }
  return balance;
}

function firstNonBlank(lines: string[]): number {
  const index = lines.findIndex((line) => !isBlank(line));
  return index === -1 ? 0 : index;
}

function lastNonBlank(lines: string[]): number {
  for (let index = lines.length - 1; index >= 0; index--) if (!isBlank(lines[index]!)) return index;
  return lines.length - 1;
}

interface Placement {
  start: number;
  /** Known once placed by its last line, or as an insertion, or found for a later segment. */
  end?: number;
  /** The segment begins with new code (placed by its last line or inserted at a block end). */
  newCodeFirst: boolean;
}

export interface SketchMerge {
  /** The merged text (LF line endings). */
  text: string;
  /** Replaced spans in the original, 1-based first line and line counts, for the confirmation. */
  spans: Array<{ firstLine: number; removedLines: number; addedLines: number }>;
}

/**
 * Merge a sketch into the original text (both LF). Deterministic: the sketch is split at its
 * markers into literal segments; each segment is anchored by its first line (searched in order,
 * must be unique) and its last line (see findEnd); the anchored span of the original is replaced
 * by the segment and everything a marker stands for is kept. A segment without a marker before it
 * starts at the top of the file, one without a marker after it runs to the end.
 */
export function mergeSketch(originalText: string, sketch: string): SketchMerge {
  const { segments } = parseSketch(sketch);
  if (segments.length === 0) fail('the sketch has no code besides "... existing code ..." markers.');
  const endsWithNewline = originalText.endsWith('\n');
  const original = (endsWithNewline ? originalText.slice(0, -1) : originalText).split('\n');

  const placements: Placement[] = [];
  // The end of an already placed segment, found now when a later segment needs it.
  const endOf = (index: number): number => {
    const placement = placements[index]!;
    if (placement.end === undefined) {
      const segment = segments[index]!;
      const startMatches = !segment.attachStart || trimmed(original[placement.start] ?? '') === trimmed(segment.lines[0]!);
      placement.end = segment.attachEnd ? original.length : findEnd(original, segment, placement.start, original.length, startMatches);
    }
    return placement.end;
  };
  /**
   * A marker indented inside a block, followed by a less indented line (`  // ... existing code ...`
   * then `}`), stands for the rest of that block: the line is the first one after the previous
   * region that leaves the marker's depth.
   */
  const closingLineAfterNestedMarker = (index: number): number | undefined => {
    const segment = segments[index]!;
    if (index === 0 || segment.markerIndent === undefined || indentOf(segment.lines[0]!) >= segment.markerIndent) return undefined;
    for (let position = endOf(index - 1); position < original.length; position++) {
      const line = original[position]!;
      if (isBlank(line) || indentOf(line) >= segment.markerIndent) continue;
      return trimmed(line) === trimmed(segment.lines[0]!) ? position : undefined;
    }
    return undefined;
  };
  let from = 0;
  segments.forEach((segment, index) => {
    if (segment.attachStart) {
      const head = firstNonBlank(original);
      const firstLine = trimmed(segment.lines[firstNonBlank(segment.lines)]!);
      const elsewhere = original.findIndex((line, position) => position !== head && trimmed(line) === firstLine);
      if (trimmed(original[head] ?? '') !== firstLine && elsewhere !== -1) {
        fail(
          `the sketch does not start with a "... existing code ..." marker, so it would replace the top of the file, yet its first line ${quote(firstLine)} is line ${elsewhere + 1}. ` +
            'Start the sketch with a marker to keep the lines above.',
        );
      }
      placements.push({ start: 0, newCodeFirst: false });
      from = 1;
      return;
    }
    const anchored = closingLineAfterNestedMarker(index) ?? findStartAnchor(original, segment.lines, from);
    if (anchored !== undefined) {
      placements.push({ start: anchored, newCodeFirst: false });
      from = anchored + 1;
      return;
    }
    // The region starts with new code: place it by its last line, or at the end of the block the marker sits in.
    const searchFrom = index > 0 ? Math.max(from, endOf(index - 1)) : from;
    const byLastLine = anchorByLastLine(original, segment.lines, searchFrom, index > 0);
    if (byLastLine) {
      placements.push({ ...byLastLine, newCodeFirst: true });
      from = byLastLine.end;
      return;
    }
    const opener = index > 0 ? endOf(index - 1) - 1 : -1;
    if (opener >= 0 && segment.markerIndent !== undefined && segment.markerIndent > indentOf(original[opener]!) && opensBlock(original, opener)) {
      const at = blockEnd(original, opener, original.length);
      placements.push({ start: at, end: at, newCodeFirst: true });
      from = at;
      return;
    }
    fail(
      `the line ${quote(segment.lines[0]!)} that follows a "... existing code ..." marker was not found in the file (after line ${from}). ` +
        'Each edited region must start with an unchanged line of the file (or end with one, such as the closing brace).',
    );
  });

  const spans: SketchMerge['spans'] = [];
  const output: string[] = [];
  let kept = 0;
  segments.forEach((segment, index) => {
    const placement = placements[index]!;
    const start = placement.start;
    const limit = placements[index + 1]?.start ?? original.length;
    let end: number;
    if (placement.end !== undefined && !segment.attachEnd) {
      end = placement.end;
    } else if (segment.attachEnd) {
      end = original.length;
      const lastRaw = segment.lines[lastNonBlank(segment.lines)]!;
      const lastLine = trimmed(lastRaw);
      const tail = lastNonBlank(original);
      const elsewhere = original.findIndex((line, position) => position >= start && position !== tail && trimmed(line) === lastLine);
      // Compared with indentation: a sketch ending on a method's "  }" does not end on the file's final "}".
      if ((original[tail] ?? '').trimEnd() !== lastRaw.trimEnd() && elsewhere !== -1) {
        fail(
          `the sketch does not end with a "... existing code ..." marker, so it would replace everything to the end of the file, yet its last line ${quote(lastLine)} is line ${elsewhere + 1}. ` +
            'End the sketch with a marker to keep the lines below.',
        );
      }
    } else {
      // A segment pinned to the top may start with new lines; others start on their anchor.
      const startMatches = !segment.attachStart || trimmed(original[start] ?? '') === trimmed(segment.lines[0]!);
      end = findEnd(original, segment, start, limit, startMatches);
    }
    if (start < kept) fail(`two regions of the sketch overlap near line ${start + 1}.`);
    // New code placed after existing code keeps the blank line the sketch put before it.
    const spacer = placement.newCodeFirst && segment.leadingBlank && start > 0 && !isBlank(original[start - 1]!) ? [''] : [];
    output.push(...original.slice(kept, start), ...spacer, ...segment.lines);
    spans.push({ firstLine: start + 1, removedLines: end - start, addedLines: segment.lines.length });
    kept = end;
  });
  output.push(...original.slice(kept));
  const text = output.join('\n') + (endsWithNewline ? '\n' : '');
  return { text, spans };
}
