import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ToolError, type ToolExecutionContext } from '@cairn/core';
import { throwIfAborted } from './abort.js';

/** Run-state key holding what the agent last saw of each file (absolute path -> snapshot). */
export const readSnapshotsStateKey = 'fs.readSnapshots';

/** What the agent last saw of a file. `sha256` is null for files too large to hash cheaply. */
export interface ReadSnapshot {
  mtimeMs: number;
  size: number;
  sha256: string | null;
}

export type ReadSnapshots = Record<string, ReadSnapshot>;

/** Files above this size are fingerprinted by mtime and size only. */
export const maxHashedBytes = 64 * 1024 * 1024;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Hash an open file from its start with positional reads (the handle's own position is left alone). */
export async function hashHandle(handle: FileHandle, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1024 * 1024);
  for (let position = 0; ; ) {
    throwIfAborted(signal);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('hex');
}

export function getReadSnapshot(context: ToolExecutionContext, absolutePath: string): ReadSnapshot | undefined {
  return context.state.get<ReadSnapshots>(readSnapshotsStateKey)?.[absolutePath];
}

/** Remember a file's state (a plain object so it persists with the checkpoint); null forgets it. */
export function setReadSnapshot(context: ToolExecutionContext, absolutePath: string, snapshot: ReadSnapshot | null): void {
  const next: ReadSnapshots = { ...(context.state.get<ReadSnapshots>(readSnapshotsStateKey) ?? {}) };
  if (snapshot) next[absolutePath] = snapshot;
  else delete next[absolutePath];
  context.state.set(readSnapshotsStateKey, next);
}

export async function snapshotFromHandle(handle: FileHandle, stats: Stats, signal?: AbortSignal): Promise<ReadSnapshot> {
  const sha256 = stats.size <= maxHashedBytes ? await hashHandle(handle, signal) : null;
  return { mtimeMs: stats.mtimeMs, size: stats.size, sha256 };
}

export function snapshotFromBytes(bytes: Uint8Array, stats: Stats): ReadSnapshot {
  return { mtimeMs: stats.mtimeMs, size: stats.size, sha256: sha256Hex(bytes) };
}

/**
 * Refuse to overwrite a file that changed on disk since the agent last read it in this run. The
 * content hash decides (a `touch` alone is not a change); without a hash, mtime and size decide.
 * Files never read in this run are not checked.
 */
export function assertUnchangedSinceRead(
  context: ToolExecutionContext,
  absolutePath: string,
  displayPath: string,
  current: { bytes: Uint8Array | null; stats: Stats | null },
): void {
  const snapshot = getReadSnapshot(context, absolutePath);
  if (!snapshot) return;
  const refuse = () => {
    throw new ToolError(
      `${displayPath} changed on disk since you last read it (another process or the user edited it). ` +
        'Read it again with read_file, then redo the change against its current content.',
    );
  };
  if (!current.stats) refuse();
  const stats = current.stats as Stats;
  // The before-image is loaded whenever the file exists (loadCurrentFile), so the hash decides.
  if (snapshot.sha256 !== null && current.bytes) {
    if (sha256Hex(current.bytes) !== snapshot.sha256) refuse();
    return;
  }
  if (stats.mtimeMs !== snapshot.mtimeMs || stats.size !== snapshot.size) refuse();
}

/** Record the file as the agent now knows it, after it wrote it (`stats` of the file it wrote). */
export function refreshSnapshotAfterWrite(context: ToolExecutionContext, absolutePath: string, bytes: Uint8Array, stats: Stats): void {
  setReadSnapshot(context, absolutePath, snapshotFromBytes(bytes, stats));
}
