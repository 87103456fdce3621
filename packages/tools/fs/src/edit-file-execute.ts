import { ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import type { EditFileInput } from './edit-file.js';
import { isExistingCodeMarker, mergeSketch } from './shared/sketch-merge.js';
import { unifiedDiff } from './shared/edit-diff.js';
import { applyTextEdit } from './shared/text-edit.js';
import { detectLineEnding, fromLf, toLf } from './shared/text-codec.js';

/** edit_file's call: loaded at the first one (see edit-file.ts for the tool). */
export async function executeEditFile(input: EditFileInput, context: ToolExecutionContext): Promise<ToolResult> {
  let diff: { path: string; diff: string; truncated?: true } | undefined;
  const message = await applyTextEdit(context, input.path, 'edit', ({ text, displayPath }) => {
    const sketch = toLf(input.code_edit);
    if (text === null || text === '') {
      if (sketch.split('\n').some(isExistingCodeMarker)) {
        throw new ToolError(
          `${displayPath} ${text === null ? 'does not exist' : 'is empty'}, so "... existing code ..." markers have nothing to stand for. Send the complete contents without markers.`,
        );
      }
      return { text: input.code_edit, message: `${text === null ? 'Created' : 'Wrote'} ${displayPath} from the sketch.` };
    }
    const lineEnding = detectLineEnding(text);
    const merged = mergeSketch(toLf(text), sketch);
    const regions = merged.spans
      .map((span) => `line ${span.firstLine}: ${span.removedLines} line(s) replaced by ${span.addedLines}`)
      .join('; ');
    return {
      text: fromLf(merged.text, lineEnding),
      message: `Edited ${displayPath}: ${merged.spans.length} region(s) (${regions}). Read the file to check the result if unsure.`,
    };
  }, ({ displayPath, before, after }) => {
    // The model sent a sketch, not the change: the real diff is only known here, after the merge.
    if (after !== null) diff = { path: displayPath, ...unifiedDiff(displayPath, before, after) };
  });
  return { content: [{ type: 'text', text: message }], ...(diff ? { structuredContent: diff } : {}) };
}
