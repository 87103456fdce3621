import type { Stats } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ToolError, type ToolExecutionContext, type ToolResult } from '@cairn/core';
import { describeFileKind, hardLinkReadRefusal, openEntryForReading } from '@cairn/core/node';
import type { DeleteFileInput } from './delete-file.js';
import { throwIfAborted } from './shared/abort.js';
import { maxEditableBytes } from './shared/current-file.js';
import { isMissing } from './shared/file-kind.js';
import { withFileLock } from '@cairn/core/node';
import { setReadSnapshot } from './shared/read-snapshots.js';
import { type WorkspaceTarget, withWriteTarget } from './shared/workspace-target.js';

/** The before-image kept for undo; a link's is null (rewind cannot recreate a link from its target's bytes). */
async function beforeImage(context: ToolExecutionContext, target: WorkspaceTarget, stats: Stats): Promise<Uint8Array | null> {
  const { displayPath } = target;
  if (stats.isSymbolicLink()) return null;
  if (!stats.isFile()) throw new ToolError(`${displayPath} is a ${describeFileKind(stats)}; delete_file removes files and links only.`);
  if (stats.size > maxEditableBytes) {
    throw new ToolError(`${displayPath} is ${stats.size} bytes, too large to keep a copy for undo; ask the user before deleting it another way.`);
  }
  // Its copy for undo would bring an outside file's contents into the workspace on rewind.
  const hardLink = hardLinkReadRefusal(target.resolved.relative, stats.nlink);
  if (hardLink) throw new ToolError(`Deleting ${displayPath} is refused: ${hardLink}. Ask the user to delete it.`);
  const opened = await openEntryForReading(context.cwd, target.entry, displayPath);
  if (!opened) throw new ToolError(`${displayPath} does not exist; nothing was deleted.`);
  try {
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}

/** delete_file's call: loaded at the first one (see delete-file.ts for the tool). */
export async function executeDeleteFile(input: DeleteFileInput, context: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(context.signal);
  if (typeof input.path !== 'string' || input.path.trim() === '') throw new ToolError('A path is required.');
  if (resolve(context.cwd, input.path) === context.cwd) throw new ToolError('The workspace root cannot be deleted.');
  const refusal = (reason: string) => `Deleting ${input.path} is refused: ${reason}. Ask the user to do it.`;
  // The folder holding the entry is resolved (confined, through symlinks), the entry itself is not:
  // a symbolic link is deleted as a link, whatever it points to.
  return withWriteTarget(
    context,
    input.path,
    'delete',
    (target) =>
      withFileLock(target.resolved.absolute, async () => {
        const { entry, displayPath } = target;
        let stats: Stats;
        try {
          stats = await lstat(entry.folder.child(entry.name));
        } catch (error) {
          if (isMissing(error)) throw new ToolError(`${displayPath} does not exist; nothing was deleted.`);
          throw error;
        }
        if (stats.isDirectory()) throw new ToolError(`${displayPath} is a directory; delete_file removes single files only.`);
        const before = await beforeImage(context, target, stats);
        await unlink(entry.folder.child(entry.name));
        await context.recordFileChange({ path: target.resolved.absolute, before, after: null });
        setReadSnapshot(context, target.resolved.absolute, null);
        return stats.isSymbolicLink() ? `Deleted the symbolic link ${displayPath} (its target was left alone).` : `Deleted ${displayPath}.`;
      }),
    { followLast: false, refusal },
  );
}
