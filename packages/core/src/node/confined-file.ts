import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '../spec/errors/index.js';
import { isMissingError } from './confined-directory.js';
import { hardLinkReadRefusal } from './hard-links.js';
import { isInsideRoot } from './inside-root.js';
import type { BeneathEntry } from './resolve-beneath.js';

export function describeFileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isDirectory()) return 'directory';
  return 'regular file';
}

export interface OpenedFile {
  handle: FileHandle;
  /** fstat of the open file: what is read is this file, whatever the names do meanwhile. */
  stats: Stats;
}

/** Linux: the kernel's name for the descriptor is inside. Elsewhere: the path still leads to this very file. */
async function stillInside(root: string, entry: BeneathEntry, handle: FileHandle, stats: Stats): Promise<boolean> {
  if (entry.folder.raceFree) {
    const location = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    return location !== undefined && isInsideRoot(root, location);
  }
  const expected = join(root, ...entry.relative.split('/'));
  if ((await realpath(expected).catch(() => undefined)) !== expected) return false;
  const now = await stat(expected).catch(() => undefined);
  return now !== undefined && now.ino === stats.ino && now.dev === stats.dev;
}

const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Open the file a confined walk ended on, for reading: inside the folder the walk holds open,
 * O_NOFOLLOW (a link swapped in since is refused), O_NONBLOCK (a FIFO cannot block the open), then
 * checked on the descriptor: a regular file, not a hard link to something possibly outside (see
 * hardLinkReadRefusal), and still inside the root (the kernel's name for the descriptor, which
 * also catches a folder moved out by the host). Returns undefined when the file does not exist.
 */
export async function openEntryForReading(root: string, entry: BeneathEntry, displayPath: string): Promise<OpenedFile | undefined> {
  if (!entry.parentExists || entry.name === '') {
    if (entry.name === '' && entry.stats) throw new ToolError(`${displayPath} is a directory, not a file. Use list_dir to see what it contains.`);
    return undefined;
  }
  let handle: FileHandle;
  try {
    handle = await open(entry.folder.child(entry.name), readFlags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ToolError(`${displayPath} turned into a symbolic link while being opened; refused.`);
    if (isMissingError(error)) return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new ToolError(`${displayPath} is a directory, not a file. Use list_dir to see what it contains.`);
    if (!stats.isFile()) throw new ToolError(`${displayPath} is a ${describeFileKind(stats)}, not a regular file; reading it is refused.`);
    const hardLink = hardLinkReadRefusal(entry.relative, stats.nlink);
    if (hardLink) throw new ToolError(`${displayPath} is refused: ${hardLink}. Read the original file instead, or ask the user to copy it into the workspace.`);
    if (!(await stillInside(root, entry, handle, stats))) {
      throw new ToolError(`${displayPath} changed its location while being opened (a folder on its path was replaced or moved); refused.`);
    }
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
