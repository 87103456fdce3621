import { constants, type Stats } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '../spec/errors/index.js';
import { isMissingError } from './confined-directory.js';
import type { BeneathEntry } from './resolve-beneath.js';
import { sweepStaleTemporaryFiles, temporaryFileName } from './temporary-files.js';

export interface AtomicReplaceOptions {
  /** Canonical workspace root. */
  root: string;
  /** Path for messages. */
  displayPath: string;
  signal?: AbortSignal;
  /**
   * Called after the temp file is written and synced, right before the final checks and rename.
   * Only for tests that simulate a race (a parent folder swapped for a symlink); not model-facing.
   */
  beforeCommit?: () => Promise<void>;
}

/**
 * Refuse targets whose overwrite would do something else than replace one file in the workspace:
 * a folder, a symlink that appeared after resolution, a hard link shared with another path, or a
 * read-only file. `path` names the entry inside its open folder. Returns the permission bits to
 * keep (undefined for a new file).
 */
export async function checkOverwriteTarget(path: string, displayPath: string): Promise<number | undefined> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (isMissingError(error)) return undefined;
    throw error;
  }
  if (stats.isDirectory()) throw new ToolError(`${displayPath} is a directory; write a file path instead.`);
  if (stats.isSymbolicLink()) throw new ToolError(`${displayPath} turned into a symbolic link while writing; refused.`);
  if (!stats.isFile()) throw new ToolError(`${displayPath} is not a regular file; writing it is refused.`);
  if (stats.nlink > 1) {
    throw new ToolError(
      `${displayPath} is a hard link shared with ${stats.nlink - 1} other path(s), possibly outside the workspace; overwriting it is refused.`,
    );
  }
  // Checked on the mode bits, not with access(): the owner marked it read-only, even for root.
  if ((stats.mode & 0o222) === 0) throw new ToolError(`${displayPath} is read-only; it was not changed.`);
  return stats.mode & 0o7777;
}

const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Replace `entry` (a name in a folder a confined walk holds open) atomically: a temp file created
 * with O_EXCL in that same folder, written and synced, the target checked again, the folder checked
 * to still be where the walk found it, then a rename inside the folder. Every step names the
 * folder through its descriptor, so neither the temp file nor the result can land outside, even
 * when a folder on the path is swapped for a symlink meanwhile. A failure at any step leaves the
 * old file as it was and removes the temp file. Returns the new file's stats.
 */
export async function replaceFileAtomically(entry: BeneathEntry, bytes: Uint8Array, options: AtomicReplaceOptions): Promise<Stats> {
  if (!entry.parentExists || entry.name === '') throw new ToolError(`The folder of ${options.displayPath} does not exist; it was not written.`);
  await sweepStaleTemporaryFiles(options.root);
  const { folder, name } = entry;
  const mode = await checkOverwriteTarget(folder.child(name), options.displayPath);
  const temporaryName = temporaryFileName(name);
  let created = false;
  let committed = false;
  try {
    const handle = await open(folder.child(temporaryName), createFlags, mode ?? 0o666);
    created = true;
    let stats: Stats;
    try {
      await handle.writeFile(bytes);
      await handle.sync();
      // open() applies the umask; chmod keeps the exact bits of the file being replaced.
      if (mode !== undefined) await handle.chmod(mode);
      stats = await handle.stat();
    } finally {
      await handle.close();
    }
    if (options.signal?.aborted) throw new ToolError(`Writing ${options.displayPath} was cancelled; the file was not changed.`);
    await options.beforeCommit?.();
    await checkOverwriteTarget(folder.child(name), options.displayPath);
    await assertFolderInPlace(entry, options);
    await rename(folder.child(temporaryName), folder.child(name));
    committed = true;
    await folder.sync();
    return stats;
  } catch (error) {
    if (created && !committed) await unlink(folder.child(temporaryName)).catch(() => undefined);
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(`Writing ${options.displayPath} failed (${(error as Error).message}); the file was not changed.`, { cause: error });
  }
}

/**
 * The folder must still be where the walk found it: renamed meanwhile (into `.git/`, under
 * `.husky/`) the checks made on its path would no longer hold for what is written.
 */
async function assertFolderInPlace(entry: BeneathEntry, options: AtomicReplaceOptions): Promise<void> {
  const expected = join(options.root, ...entry.relative.split('/').slice(0, -1));
  const location = await entry.folder.currentLocation();
  if (location === expected) return;
  throw new ToolError(
    location === undefined
      ? `The folder of ${options.displayPath} disappeared while writing; the file was not changed.`
      : `The folder of ${options.displayPath} was moved or replaced by a symbolic link while writing; the file was not changed.`,
  );
}
