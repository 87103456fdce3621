import type { ToolExecutionContext } from '@cairn/core';
import { replaceFileAtomically } from '@cairn/core/node';
import { throwIfAborted } from './abort.js';
import type { CurrentFile } from './current-file.js';
import { refreshSnapshotAfterWrite } from './read-snapshots.js';
import { type WorkspaceTarget, writableEntry } from './workspace-target.js';

/**
 * The end of every change: write `after` atomically into the target's open folder (creating
 * missing folders only now), record the change for undo, and remember the file as the agent now
 * knows it.
 */
export async function commitFileChange(context: ToolExecutionContext, target: WorkspaceTarget, inputPath: string, current: CurrentFile, after: Uint8Array): Promise<void> {
  throwIfAborted(context.signal);
  const writable = await writableEntry(context, target, inputPath);
  try {
    const stats = await replaceFileAtomically(writable.entry, after, { root: context.cwd, displayPath: target.displayPath, signal: context.signal });
    await context.recordFileChange({ path: target.resolved.absolute, before: current.bytes, after });
    refreshSnapshotAfterWrite(context, target.resolved.absolute, after, stats);
  } finally {
    await writable.release();
  }
}
