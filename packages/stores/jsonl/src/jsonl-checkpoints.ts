import type { CheckpointBlob, CheckpointStore } from '@cairn/core';
import type { JsonlState } from './jsonl-state.js';
import { invalidArgumentError } from './store-errors.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

function checkHash(hash: string): void {
  if (!blobHashPattern.test(hash)) throw invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256).`);
}

// Blob bytes stay on disk: memory holds only where each blob's line is, and getBlob reads it back.
export function createJsonlCheckpointStore(state: JsonlState): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  const pending = new Map<string, Promise<void>>();

  /**
   * Writes the blobs not stored or being written yet, in one append (one `write`), and waits for
   * those another call is writing. Content-addressed, never rewritten: a stored hash is left alone.
   */
  async function put(blobs: ReadonlyArray<CheckpointBlob>): Promise<void> {
    for (const blob of blobs) checkHash(blob.hash);
    await state.ready();
    const waits = new Set<Promise<void>>();
    const fresh = new Map<string, string>();
    for (const { hash, data } of blobs) {
      const inFlight = pending.get(hash);
      if (inFlight !== undefined) waits.add(inFlight);
      else if (!state.blobs.has(hash) && !fresh.has(hash)) fresh.set(hash, `{"hash":"${hash}","data":"${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}"}`);
    }
    if (fresh.size > 0) {
      const hashes = [...fresh.keys()];
      const lines = [...fresh.values()];
      const write = state.persistLines('checkpoints', lines).then((positions) => {
        hashes.forEach((hash, index) => {
          state.blobs.set(hash, { position: positions[index] as number, byteLength: Buffer.byteLength(lines[index] as string) });
        });
      });
      for (const hash of hashes) pending.set(hash, write);
      waits.add(
        write.finally(() => {
          for (const hash of hashes) pending.delete(hash);
        }),
      );
    }
    await Promise.all(waits);
  }

  return {
    putBlob: (hash, data) => put([{ hash, data }]),
    putBlobs: (blobs) => put(blobs),
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
