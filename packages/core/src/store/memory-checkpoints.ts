import type { CheckpointStore } from '../spec/store/v1/store.js';
import { assertBlobHash } from './blob-hash.js';
import { copyBytes } from './record-copy.js';

export function createMemoryCheckpointStore(): CheckpointStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    async putBlob(hash, data) {
      assertBlobHash(hash);
      // Content-addressed: a blob is never rewritten, so a second put of the same hash is a no-op.
      if (!blobs.has(hash)) blobs.set(hash, copyBytes(data));
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
