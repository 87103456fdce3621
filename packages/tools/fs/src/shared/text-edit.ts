import { ToolError, type ToolExecutionContext } from '@cairn/core';
import { withFileLock } from '@cairn/core/node';
import { throwIfAborted } from './abort.js';
import { commitFileChange } from './commit-change.js';
import { loadCurrentFile } from './current-file.js';
import { assertUnchangedSinceRead } from './read-snapshots.js';
import { type EditableText, encodeText, prepareForEdit } from './text-codec.js';
import { withWriteTarget } from './workspace-target.js';

export interface TextEditInput {
  /** null when the file does not exist yet. */
  text: string | null;
  /** The file as read (null when it does not exist), for edits that work on UTF-8 bytes directly. */
  file: EditableText | null;
  displayPath: string;
}

/** The new text (encoded like the old file), or the new file's bytes from a byte-level edit. */
export type TextEditOutcome = { text: string; message: string } | { bytes: Buffer; message: string };

/**
 * The shared life cycle of a text edit: confine and protect the path, load the file, refuse when it
 * changed since the agent read it, check the text (keeping encoding and BOM), transform, write atomically,
 * record the change and refresh the read snapshot. `transform` throws ToolError to refuse; the file
 * is then untouched. `onEdited` gets the texts before and after a written edit (for a diff).
 */
export async function applyTextEdit(
  context: ToolExecutionContext,
  inputPath: string,
  toolId: string,
  transform: (input: TextEditInput) => TextEditOutcome,
  onEdited?: (edit: { displayPath: string; before: string | null; after: string | null }) => void,
): Promise<string> {
  throwIfAborted(context.signal);
  return withWriteTarget(context, inputPath, toolId, (target) =>
    withFileLock(target.resolved.absolute, async () => {
      const { displayPath } = target;
      const current = await loadCurrentFile(context.cwd, target);
      assertUnchangedSinceRead(context, target.resolved.absolute, displayPath, current);
      const file = current.bytes ? prepareForEdit(current.bytes, displayPath) : null;
      const outcome = transform({
        get text() {
          return file?.text ?? null;
        },
        file,
        displayPath,
      });
      const after = 'bytes' in outcome ? outcome.bytes : encodeText(outcome.text, file?.encoding ?? 'utf-8', file?.bom ?? false);
      if (file?.bytes.equals(after)) throw new ToolError(`The edit would not change ${displayPath}; nothing was written.`);
      await commitFileChange(context, target, inputPath, current, after);
      onEdited?.({ displayPath, before: file?.text ?? null, after: 'text' in outcome ? outcome.text : null });
      return outcome.message;
    }),
  );
}
