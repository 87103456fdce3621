// A batch of files on their way into the index: read, hashed and chunked outside any transaction
// (prepareFiles), then written in one (applyPrepared). Used by a sync's batches, by updateFiles
// and by the edit-in-place re-read of a tree check.
import { join } from 'node:path';
import type { ChunkFileOptions } from './chunk-file.js';
import type { ChunkPool } from './chunk-workers.js';
import { embeddingInput } from './embed-pending.js';
import type { WorkspaceRoles } from './file-role.js';
import { contentHash } from './hashing.js';
import type { FileRecord, IndexStore } from './index-store.js';
import { readTextFile, type SkipReason, trustedMtime } from './scan-workspace.js';
import type { Chunk } from './types.js';

export type PreparedFile =
  | { type: 'write'; record: FileRecord; chunks: Array<Chunk & { contentHash: string }> }
  | { type: 'touch'; record: FileRecord }
  | { type: 'remove'; path: string; reason?: SkipReason };

export interface FilePreparation {
  cwd: string;
  maxFileBytes: number;
  chunkPool: ChunkPool;
  chunkOptions: ChunkFileOptions;
}

/**
 * Each file as what to do with it: write (new content, chunked in the worker pool), touch (same
 * content, new size or time) or remove (gone, or skipped as binary, unreadable or too large).
 */
export async function prepareFiles(paths: string[], stored: Map<string, FileRecord>, preparation: FilePreparation): Promise<PreparedFile[]> {
  const prepared: PreparedFile[] = [];
  const toChunk: Array<{ record: FileRecord; text: string; slot: number }> = [];
  for (const path of paths) {
    const read = await readTextFile(join(preparation.cwd, path), preparation.maxFileBytes);
    if ('skipped' in read) {
      prepared.push({ type: 'remove', path, ...(read.skipped === 'missing' ? {} : { reason: read.skipped }) });
      continue;
    }
    // A file written in the last moments may be written again within the same mtime tick: recorded as -1, it is hashed again next time.
    const record: FileRecord = { path, hash: contentHash(read.text), size: read.size, mtimeMs: trustedMtime(read.mtimeMs) };
    if (stored.get(path)?.hash === record.hash) {
      prepared.push({ type: 'touch', record });
      continue;
    }
    toChunk.push({ record, text: read.text, slot: prepared.length });
    prepared.push({ type: 'write', record, chunks: [] });
  }
  const chunked = await preparation.chunkPool.chunkAll(
    toChunk.map((file) => ({ path: file.record.path, text: file.text })),
    preparation.chunkOptions,
  );
  toChunk.forEach((file, index) => {
    const chunks = (chunked[index] ?? []).map((chunk) => ({ ...chunk, contentHash: contentHash(embeddingInput(chunk)) }));
    prepared[file.slot] = { type: 'write', record: file.record, chunks };
  });
  return prepared;
}

/** Writes a prepared batch (call inside the store's transaction); the first chunk holds the generated-file markers a role looks for. */
export function applyPrepared(store: IndexStore, batch: PreparedFile[], roles: WorkspaceRoles): void {
  for (const item of batch) {
    if (item.type === 'write') store.writeFile(item.record, item.chunks, roles.roleOf(item.record.path, item.chunks[0]?.text.slice(0, 2000) ?? ''));
    else if (item.type === 'touch') store.touchFile(item.record);
    else store.removeFile(item.path);
  }
}
