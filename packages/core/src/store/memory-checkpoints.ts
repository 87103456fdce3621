import type { CheckpointBlob, CheckpointStore } from '../spec/store/v1/store.js';
import { assertBlobHash } from './blob-hash.js';
import { copyBytes } from './record-copy.js';

export type MemoryBlobs = Map<string, Uint8Array>;

/**
 * Stores a batch all or nothing, like one transaction: every hash is checked before any blob is
 * stored. Content-addressed: a blob is never rewritten, so a hash already there is left alone.
 */
export function storeBlobs(blobs: MemoryBlobs, entries: ReadonlyArray<CheckpointBlob>): void {
  for (const entry of entries) assertBlobHash(entry.hash);
  for (const entry of entries) if (!blobs.has(entry.hash)) blobs.set(entry.hash, copyBytes(entry.data));
}

/** Blobs in a Map (pass one to share it with a checkpoint commit, see memory-store.ts). */
export function createMemoryCheckpointStore(blobs: MemoryBlobs = new Map()): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  return {
    async putBlob(hash, data) {
      storeBlobs(blobs, [{ hash, data }]);
    },
    async putBlobs(entries) {
      storeBlobs(blobs, entries);
    },
    async getBlob(hash) {
      const data = blobs.get(hash);
      return data === undefined ? undefined : copyBytes(data);
    },
    async hasBlob(hash) {
      return blobs.has(hash);
    },
  };
}
