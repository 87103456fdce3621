import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ToolError, type ToolExecutionContext } from '@cairn/core';

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

export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
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

export async function snapshotFromFile(path: string, stats: Stats, signal?: AbortSignal): Promise<ReadSnapshot> {
  const sha256 = stats.size <= maxHashedBytes ? await hashFile(path, signal) : null;
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
export async function assertUnchangedSinceRead(
  context: ToolExecutionContext,
  absolutePath: string,
  displayPath: string,
  current: { bytes: Uint8Array | null; stats: Stats | null },
): Promise<void> {
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
  if (snapshot.sha256 !== null && current.bytes) {
    if (sha256Hex(current.bytes) !== snapshot.sha256) refuse();
    return;
  }
  if (snapshot.sha256 !== null && stats.size <= maxHashedBytes) {
    if ((await hashFile(absolutePath, context.signal)) !== snapshot.sha256) refuse();
    return;
  }
  if (stats.mtimeMs !== snapshot.mtimeMs || stats.size !== snapshot.size) refuse();
}

/** Record the file as the agent now knows it, after it wrote it. */
export async function refreshSnapshotAfterWrite(context: ToolExecutionContext, absolutePath: string, bytes: Uint8Array): Promise<void> {
  const stats = await stat(absolutePath);
  setReadSnapshot(context, absolutePath, snapshotFromBytes(bytes, stats));
}
