import { ToolError, type ToolExecutionContext } from '@cairn/core';
import { throwIfAborted } from './abort.js';
import { atomicWriteFile } from './atomic-write.js';
import { loadCurrentFile } from './current-file.js';
import { withFileLock } from './file-lock.js';
import { assertUnchangedSinceRead, refreshSnapshotAfterWrite } from './read-snapshots.js';
import { decodeForEdit, encodeText, type TextEncodingName } from './text-codec.js';
import { displayPathOf, resolveWriteTarget } from './workspace-target.js';

export interface TextEditInput {
  /** null when the file does not exist yet. */
  text: string | null;
  displayPath: string;
}

export interface TextEditOutcome {
  text: string;
  /** The confirmation the model sees. */
  message: string;
}

/**
 * The shared life cycle of a text edit: confine and protect the path, load the file, refuse when it
 * changed since the agent read it, decode (keeping encoding and BOM), transform, write atomically,
 * record the change and refresh the read snapshot. `transform` throws ToolError to refuse; the file
 * is then untouched.
 */
export async function applyTextEdit(
  context: ToolExecutionContext,
  inputPath: string,
  toolId: string,
  transform: (input: TextEditInput) => TextEditOutcome,
): Promise<string> {
  throwIfAborted(context.signal);
  const resolved = await resolveWriteTarget(context, inputPath, toolId);
  const displayPath = displayPathOf(resolved, inputPath);
  return withFileLock(resolved.absolute, async () => {
    const current = await loadCurrentFile(resolved.absolute, displayPath);
    await assertUnchangedSinceRead(context, resolved.absolute, displayPath, current);
    let encoding: TextEncodingName = 'utf-8';
    let bom = false;
    let text: string | null = null;
    if (current.bytes) {
      const decoded = decodeForEdit(current.bytes, displayPath);
      ({ encoding, bom, text } = decoded);
    }
    const outcome = transform({ text, displayPath });
    if (text !== null && outcome.text === text) throw new ToolError(`The edit would not change ${displayPath}; nothing was written.`);
    const after = encodeText(outcome.text, encoding, bom);
    throwIfAborted(context.signal);
    await atomicWriteFile(resolved.absolute, after, { root: context.cwd, displayPath, signal: context.signal });
    await context.recordFileChange({ path: resolved.absolute, before: current.bytes, after });
    await refreshSnapshotAfterWrite(context, resolved.absolute, after);
    return outcome.message;
  });
}
