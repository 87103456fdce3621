import { constants } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { ToolError } from '@cairn/core';
import { describeKind } from './file-kind.js';

/**
 * Open a file for reading without ever blocking: O_NONBLOCK makes opening a FIFO return at once
 * and O_NOFOLLOW refuses a final symlink swapped in after the path was resolved. The handle is
 * checked to be a regular file before anything reads it. `path` must be canonical (resolved).
 */
export async function openRegularFile(path: string, displayPath: string): Promise<FileHandle> {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ToolError(`${displayPath} turned into a symbolic link; refused.`);
    throw error;
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new ToolError(`${displayPath} is a ${describeKind(stats)}, not a regular file; refused.`);
  }
  // `path` is canonical: if a folder on the way was swapped for a symlink since it was resolved, the
  // path no longer resolves to itself, or to the file that was opened.
  const real = await realpath(path).catch(() => undefined);
  const now = real === path ? await stat(path).catch(() => undefined) : undefined;
  if (!now || now.ino !== stats.ino || now.dev !== stats.dev) {
    await handle.close();
    throw new ToolError(`${displayPath} changed its location while being opened (a folder on its path was replaced); refused.`);
  }
  return handle;
}
