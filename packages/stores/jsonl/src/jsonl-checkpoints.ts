import type { CheckpointStore } from '@cairn/core';
import type { JsonlState } from './jsonl-state.js';
import { invalidArgumentError } from './store-errors.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

// Blob bytes stay on disk: memory holds only where each blob's line is, and getBlob reads it back.
export function createJsonlCheckpointStore(state: JsonlState): CheckpointStore {
  const pending = new Map<string, Promise<void>>();
  return {
    async putBlob(hash, data) {
      if (!blobHashPattern.test(hash)) throw invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256).`);
      await state.ready();
      // Content-addressed, never rewritten: a second put of the same hash waits for the first.
      if (state.blobs.has(hash)) return;
      const inFlight = pending.get(hash);
      if (inFlight !== undefined) return inFlight;
      const base64 = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
      const line = `{"hash":"${hash}","data":"${base64}"}`;
      const write = state.persistLines('checkpoints', [line]).then(([position]) => {
        state.blobs.set(hash, { position: position as number, byteLength: Buffer.byteLength(line) });
      });
      pending.set(hash, write);
      try {
        await write;
      } finally {
        pending.delete(hash);
      }
    },
    async getBlob(hash) {
      await state.ready();
      const inFlight = pending.get(hash);
      if (inFlight !== undefined) await inFlight;
      const location = state.blobs.get(hash);
      if (location === undefined) return undefined;
      const record = JSON.parse(await state.logs.checkpoints.readLine(location.position, location.byteLength)) as { data: string };
      return new Uint8Array(Buffer.from(record.data, 'base64'));
    },
    async hasBlob(hash) {
      await state.ready();
      return state.blobs.has(hash) || pending.has(hash);
    },
  };
}
