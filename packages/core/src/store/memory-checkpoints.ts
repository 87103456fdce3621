import type { CheckpointStore } from '../spec/store/v1/store.js';
import { assertBlobHash } from './blob-hash.js';
import { copyBytes } from './record-copy.js';

export function createMemoryCheckpointStore(): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  const blobs = new Map<string, Uint8Array>();
  // Content-addressed: a blob is never rewritten, so a second put of the same hash is a no-op.
  const put = (hash: string, data: Uint8Array) => {
    if (!blobs.has(hash)) blobs.set(hash, copyBytes(data));
  };
  return {
    async putBlob(hash, data) {
      assertBlobHash(hash);
      put(hash, data);
    },
    async putBlobs(entries) {
      // All or nothing, like one transaction: every hash is checked before any blob is stored.
      for (const entry of entries) assertBlobHash(entry.hash);
      for (const entry of entries) put(entry.hash, entry.data);
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
