import { lstat, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { defineTool, ToolError } from '@cairn/core';
import { isInsideRoot, protectedPathReason, toPosix } from '@cairn/core/node';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { describeKind, isMissing } from './shared/file-kind.js';
import { maxEditableBytes } from './shared/current-file.js';
import { openRegularFile } from './shared/open-regular-file.js';
import { withFileLock } from './shared/file-lock.js';
import { setReadSnapshot } from './shared/read-snapshots.js';
import { protectedWritesAllowed } from './shared/tool-settings.js';

export const deleteFileInputSchema = z.object({
  path: z.string().describe('Path of the file to delete, relative to the workspace root.'),
});

export type DeleteFileInput = z.infer<typeof deleteFileInputSchema>;

/**
 * Resolve the folder holding the entry (through symlinks, confined) but not the entry itself: a
 * symbolic link is deleted as a link, whatever it points to.
 */
async function resolveEntry(root: string, inputPath: string): Promise<{ entry: string; relative: string }> {
  if (inputPath.includes('\0')) throw new ToolError('The path contains a NUL byte.');
  const lexical = resolve(root, inputPath);
  if (!isInsideRoot(root, lexical)) throw new ToolError(`Path ${inputPath} is outside the workspace. Use a path inside the workspace.`);
  if (lexical === root) throw new ToolError('The workspace root cannot be deleted.');
  let parent: string;
  try {
    parent = await realpath(dirname(lexical));
  } catch {
    throw new ToolError(`${inputPath} does not exist.`);
  }
  if (!isInsideRoot(root, parent)) throw new ToolError(`Path ${inputPath} goes through a symbolic link to a folder outside the workspace. Refused.`);
  const entry = join(parent, basename(lexical));
  if (entry === root) throw new ToolError('The workspace root cannot be deleted.');
  return { entry, relative: toPosix(entry.slice(root.length + 1)) };
}

export const deleteFileTool = defineTool<DeleteFileInput>({
  id: 'delete',
  name: 'delete_file',
  description:
    'Delete one file of the workspace. A symbolic link is removed itself, never its target. Folders and the workspace root are refused.',
  inputSchema: deleteFileInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    throwIfAborted(context.signal);
    if (typeof input.path !== 'string' || input.path.trim() === '') throw new ToolError('A path is required.');
    const protect = (path: string) => {
      const reason = protectedWritesAllowed(context, 'delete') ? undefined : protectedPathReason(context.cwd, path);
      if (reason) throw new ToolError(`Deleting ${input.path} is refused: ${reason}. Ask the user to do it.`);
    };
    // The name as given first (whether it exists or not), then the entry behind symlinked folders.
    protect(resolve(context.cwd, input.path));
    const { entry, relative } = await resolveEntry(context.cwd, input.path);
    protect(entry);
    if (context.isPathDenied(entry, 'delete')) throw new ToolError(`Deleting ${relative} is denied by the permission rules.`);
    return withFileLock(entry, async () => {
      let stats: Awaited<ReturnType<typeof lstat>>;
      try {
        stats = await lstat(entry);
      } catch (error) {
        if (isMissing(error)) throw new ToolError(`${relative} does not exist; nothing was deleted.`);
        throw error;
      }
      if (stats.isDirectory()) throw new ToolError(`${relative} is a directory; delete_file removes single files only.`);
      let before: Uint8Array | null = null;
      if (stats.isFile()) {
        if (stats.size > maxEditableBytes) {
          throw new ToolError(`${relative} is ${stats.size} bytes, too large to keep a copy for undo; ask the user before deleting it another way.`);
        }
        const handle = await openRegularFile(entry, relative);
        try {
          before = await handle.readFile();
        } finally {
          await handle.close();
        }
      } else if (!stats.isSymbolicLink()) {
        throw new ToolError(`${relative} is a ${describeKind(stats)}; delete_file removes files and links only.`);
      }
      await unlink(entry);
      // A link's before-image is not its target's bytes (rewind cannot recreate a link from them).
      await context.recordFileChange({ path: entry, before, after: null });
      setReadSnapshot(context, entry, null);
      return stats.isSymbolicLink() ? `Deleted the symbolic link ${relative} (its target was left alone).` : `Deleted ${relative}.`;
    });
  },
});
