import { defineTool, ToolError } from '@cairn/core';
import { z } from 'zod';
import { describeReplacement, lineNumberAt } from './shared/edit-summary.js';
import { applyTextEdit } from './shared/text-edit.js';
import { detectLineEnding, fromLf, toLf } from './shared/text-codec.js';

export const searchReplaceInputSchema = z.object({
  path: z.string().describe('Path of the file to edit, relative to the workspace root.'),
  old_string: z.string().describe('The exact text to replace, including whitespace and indentation. Empty only to create a new file.'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one. Default false.'),
});

export type SearchReplaceInput = z.infer<typeof searchReplaceInputSchema>;

/** Every start index of `needle` in `haystack`, non-overlapping, left to right. */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

/** Replace at known indices by slicing: `$&`, `$1` and `$$` stay literal (no String.replace). */
function replaceAt(text: string, indices: number[], length: number, replacement: string): string {
  let result = '';
  let last = 0;
  for (const index of indices) {
    result += text.slice(last, index) + replacement;
    last = index + length;
  }
  return result + text.slice(last);
}

/**
 * Pick the form of old/new that the file uses: text written with LF matches a CRLF file (and the
 * reverse) and the replacement gets the file's line ending. The exact form is tried first.
 */
function matchForms(text: string, oldString: string, newString: string): { oldForm: string; newForm: string; indices: number[] } {
  const exact = findOccurrences(text, oldString);
  if (exact.length > 0) {
    const lineEnding = detectLineEnding(text);
    return { oldForm: oldString, newForm: fromLf(toLf(newString), lineEnding), indices: exact };
  }
  const lineEnding = detectLineEnding(text);
  const oldForm = fromLf(toLf(oldString), lineEnding);
  return { oldForm, newForm: fromLf(toLf(newString), lineEnding), indices: oldForm === oldString ? [] : findOccurrences(text, oldForm) };
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

export const searchReplaceTool = defineTool<SearchReplaceInput>({
  id: 'edit',
  name: 'search_replace',
  description:
    'Replace an exact piece of text in a file. old_string must match the file exactly (whitespace included) and exactly once, unless ' +
    'replace_all is true; include enough surrounding lines to make it unique. Line endings and byte order marks are kept. ' +
    'With an empty old_string on a path that does not exist, the file is created with new_string. ' +
    'Fails if the file changed on disk since you read it.',
  inputSchema: searchReplaceInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    if (input.old_string === input.new_string) {
      throw new ToolError('old_string and new_string are identical, so the edit would change nothing. Put the changed text in new_string.');
    }
    return applyTextEdit(context, input.path, 'edit', ({ text, displayPath }) => {
      if (text === null) {
        if (input.old_string !== '') throw new ToolError(`${displayPath} does not exist. To create it, call search_replace with an empty old_string or use write.`);
        return { text: input.new_string, message: `Created ${displayPath}.` };
      }
      if (input.old_string === '') {
        if (text !== '') throw new ToolError(`old_string is empty but ${displayPath} already has content. Quote the text to replace, or use write to replace the whole file.`);
        return { text: input.new_string, message: `Wrote ${displayPath} (it was empty).` };
      }
      const { oldForm, newForm, indices } = matchForms(text, input.old_string, input.new_string);
      if (indices.length === 0) {
        const near = whitespaceInsensitiveLine(text, input.old_string);
        const hint = near === undefined ? '' : ` Text matching it except for indentation or spacing starts at line ${near}; copy it exactly from there.`;
        throw new ToolError(
          `old_string was not found in ${displayPath}. Read the file again and copy the exact text, including whitespace and indentation.${hint}`,
        );
      }
      if (indices.length > 1 && input.replace_all !== true) {
        throw new ToolError(
          `old_string occurs ${indices.length} times in ${displayPath} (lines ${indices.map((index) => lineNumberAt(text, index)).slice(0, 10).join(', ')}). ` +
            'Include more surrounding lines so it matches exactly one place, or set replace_all to true to replace all of them.',
        );
      }
      const updated = replaceAt(text, indices, oldForm.length, newForm);
      const firstLine = lineNumberAt(text, indices[0] ?? 0);
      const count = indices.length === 1 ? '1 replacement' : `${indices.length} replacements (first shown)`;
      return {
        text: updated,
        message: `Edited ${displayPath}: ${count}.\n${describeReplacement(toLf(oldForm), toLf(newForm), firstLine)}`,
      };
    });
  },
});
