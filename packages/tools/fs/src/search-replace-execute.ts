import { ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import type { SearchReplaceInput } from './search-replace.js';
import { detectLineEndingInBytes, findByteOccurrences, lineNumberAtByte, replaceBytes } from './shared/byte-search.js';
import { describeReplacement, lineNumberAt } from './shared/edit-summary.js';
import { applyTextEdit } from './shared/text-edit.js';
import { detectLineEnding, type EditableText, fromLf, toLf } from './shared/text-codec.js';

/** Every start index of `needle` in `haystack`, non-overlapping, left to right. */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

/** Replace at known indices by slicing: `$&`, `$1` and `$$` stay literal (no String.replace). */
function replaceAt(text: string, indices: number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const index of indices) {
    parts.push(text.slice(last, index), replacement);
    last = index + length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/** Where old_string is searched: the file's UTF-8 bytes (any size, no decoded copy), or its decoded text. */
interface Haystack {
  lineEnding: '\n' | '\r\n';
  /** How many non-overlapping matches, and the 1-based lines of the first ten. */
  find(needle: string): { count: number; lines: number[] };
  replaceAll(needle: string, replacement: string): { text: string } | { bytes: Buffer };
}

function utf8Haystack(file: EditableText): Haystack {
  const body = file.bytes.subarray(file.bodyStart);
  return {
    lineEnding: detectLineEndingInBytes(body),
    find(needle) {
      const { count, first } = findByteOccurrences(body, Buffer.from(needle, 'utf8'), 10);
      return { count, lines: first.map((offset) => lineNumberAtByte(body, offset)) };
    },
    replaceAll(needle, replacement) {
      const needleBytes = Buffer.from(needle, 'utf8');
      const { count } = findByteOccurrences(body, needleBytes, 0);
      return { bytes: replaceBytes(file.bytes.subarray(0, file.bodyStart), body, needleBytes, Buffer.from(replacement, 'utf8'), count) };
    },
  };
}

function textHaystack(text: string): Haystack {
  return {
    lineEnding: detectLineEnding(text),
    find(needle) {
      const found = findOccurrences(text, needle);
      return { count: found.length, lines: found.slice(0, 10).map((index) => lineNumberAt(text, index)) };
    },
    replaceAll: (needle, replacement) => ({ text: replaceAt(text, findOccurrences(text, needle), needle.length, replacement) }),
  };
}

/**
 * Pick the form of old/new that the file uses: text written with LF matches a CRLF file (and the
 * reverse) and the replacement gets the file's line ending. The exact form is tried first.
 */
function matchForms(haystack: Haystack, oldString: string, newString: string): { oldForm: string; newForm: string; count: number; lines: number[] } {
  const newForm = fromLf(toLf(newString), haystack.lineEnding);
  const exact = haystack.find(oldString);
  if (exact.count > 0) return { oldForm: oldString, newForm, ...exact };
  const oldForm = fromLf(toLf(oldString), haystack.lineEnding);
  return { oldForm, newForm, ...(oldForm === oldString ? { count: 0, lines: [] } : haystack.find(oldForm)) };
}

/** 1-based line where old_string's lines match when leading and trailing whitespace is ignored. */
function whitespaceInsensitiveLine(text: string, oldString: string): number | undefined {
  const wanted = toLf(oldString).split('\n').map((line) => line.trim());
  while (wanted.length > 0 && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0 || wanted.every((line) => line === '')) return undefined;
  const lines = toLf(text).split('\n').map((line) => line.trim());
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    if (wanted.every((line, offset) => lines[start + offset] === line)) return start + 1;
  }
  return undefined;
}

/** search_replace's call: loaded at the first one (see search-replace.ts for the tool). */
export async function executeSearchReplace(input: SearchReplaceInput, context: ToolExecutionContext): Promise<ToolResult> {
  if (input.old_string === input.new_string) {
    throw new ToolError('old_string and new_string are identical, so the edit would change nothing. Put the changed text in new_string.');
  }
  return applyTextEdit(context, input.path, 'edit', ({ file, displayPath }) => {
    if (file === null) {
      if (input.old_string !== '') throw new ToolError(`${displayPath} does not exist. To create it, call search_replace with an empty old_string or use write.`);
      return { text: input.new_string, message: `Created ${displayPath}.` };
    }
    if (input.old_string === '') {
      if (file.bytes.length > file.bodyStart) throw new ToolError(`old_string is empty but ${displayPath} already has content. Quote the text to replace, or use write to replace the whole file.`);
      return { text: input.new_string, message: `Wrote ${displayPath} (it was empty).` };
    }
    const haystack = file.encoding === 'utf-8' ? utf8Haystack(file) : textHaystack(file.text);
    const { oldForm, newForm, count, lines } = matchForms(haystack, input.old_string, input.new_string);
    if (count === 0) {
      const near = whitespaceInsensitiveLine(file.text, input.old_string);
      const hint = near === undefined ? '' : ` Text matching it except for indentation or spacing starts at line ${near}; copy it exactly from there.`;
      throw new ToolError(
        `old_string was not found in ${displayPath}. Read the file again and copy the exact text, including whitespace and indentation.${hint}`,
      );
    }
    if (count > 1 && input.replace_all !== true) {
      throw new ToolError(
        `old_string occurs ${count} times in ${displayPath} (lines ${lines.join(', ')}). ` +
          'Include more surrounding lines so it matches exactly one place, or set replace_all to true to replace all of them.',
      );
    }
    const summary = count === 1 ? '1 replacement' : `${count} replacements (first shown)`;
    return {
      ...haystack.replaceAll(oldForm, newForm),
      message: `Edited ${displayPath}: ${summary}.\n${describeReplacement(toLf(oldForm), toLf(newForm), lines[0] ?? 1)}`,
    };
  });
}
