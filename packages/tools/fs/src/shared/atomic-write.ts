import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '@cairn/core';
import { isInsideRoot } from '@cairn/core/node';
import { isMissing } from './file-kind.js';

export interface AtomicWriteOptions {
  /** Canonical workspace root; the parent folder must still resolve inside it at commit time. */
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
 * read-only file. Returns the permission bits to keep (undefined for a new file).
 */
export async function checkOverwriteTarget(absolutePath: string, displayPath: string): Promise<number | undefined> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(absolutePath);
  } catch (error) {
    if (isMissing(error)) return undefined;
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

/**
 * Write a file atomically: a temp file in the same folder, fsync, re-check, rename over the target.
 * A failure at any step leaves the old file as it was and removes the temp file.
 */
export async function atomicWriteFile(absolutePath: string, bytes: Uint8Array, options: AtomicWriteOptions): Promise<void> {
  const parent = dirname(absolutePath);
  const mode = await checkOverwriteTarget(absolutePath, options.displayPath);
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    throw new ToolError(`Cannot create the folder for ${options.displayPath}: ${(error as Error).message}`, { cause: error });
  }
  await assertParentStillCanonical(parent, options);
  const temporaryPath = join(parent, `.${basename(absolutePath)}.cairn-${randomBytes(6).toString('hex')}.tmp`);
  let committed = false;
  try {
    const handle = await open(temporaryPath, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
      // open() applies the umask; chmod keeps the exact bits of the file being replaced.
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    if (options.signal?.aborted) throw new ToolError(`Writing ${options.displayPath} was cancelled; the file was not changed.`);
    await options.beforeCommit?.();
    // Check again at commit time: the parent may have been swapped for a symlink since resolution.
    await assertParentStillCanonical(parent, options);
    await checkOverwriteTarget(absolutePath, options.displayPath);
    await rename(temporaryPath, absolutePath);
    committed = true;
    await syncDirectory(parent);
  } catch (error) {
    if (!committed) await unlink(temporaryPath).catch(() => undefined);
    if (ToolError.isInstance(error)) throw error;
    throw new ToolError(`Writing ${options.displayPath} failed (${(error as Error).message}); the file was not changed.`, { cause: error });
  }
}

async function assertParentStillCanonical(parent: string, options: AtomicWriteOptions): Promise<void> {
  let real: string;
  try {
    real = await realpath(parent);
  } catch (error) {
    throw new ToolError(`The folder of ${options.displayPath} disappeared while writing; refused.`, { cause: error });
  }
  if (real !== parent || !isInsideRoot(options.root, real)) {
    throw new ToolError(`The folder of ${options.displayPath} was replaced by a symbolic link while writing; refused.`);
  }
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes the rename durable on crash; not supported everywhere (Windows), so best effort.
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // ignore
  }
}
