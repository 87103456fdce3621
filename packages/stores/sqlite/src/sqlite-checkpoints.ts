import type { CheckpointStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { invalidArgumentError } from './store-errors.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

function checkHash(hash: string): void {
  if (!blobHashPattern.test(hash)) throw invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256).`);
}

/** Only the view's bytes, not the whole backing ArrayBuffer. */
const bytesOf = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

export function createSqliteCheckpointStore(database: Database.Database, path: string): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  // Content-addressed and never rewritten: a second put of the same hash is ignored (no read first).
  const insert = database.prepare('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)');
  const select = database.prepare<[string], { data: Buffer }>('SELECT data FROM blobs WHERE hash = ?');
  const exists = database.prepare<[string], { found: number }>('SELECT 1 AS found FROM blobs WHERE hash = ?');
  // A checkpoint save's blobs (new messages, state, root) in one commit instead of one each.
  const insertMany = database
    .transaction((blobs: ReadonlyArray<{ hash: string; data: Uint8Array }>) => {
      for (const blob of blobs) insert.run(blob.hash, bytesOf(blob.data));
    })
    .immediate.bind(null);

  return {
    putBlob: (hash, data) => {
      try {
        checkHash(hash);
      } catch (error) {
        return Promise.reject(error);
      }
      return withBusyRetry(path, () => void insert.run(hash, bytesOf(data)));
    },
    putBlobs: (blobs) => {
      try {
        for (const blob of blobs) checkHash(blob.hash);
      } catch (error) {
        return Promise.reject(error);
      }
      if (blobs.length === 0) return Promise.resolve();
      return withBusyRetry(path, () => insertMany(blobs));
    },
    getBlob: (hash) =>
      withBusyRetry(path, () => {
        const row = select.get(hash);
        return row === undefined ? undefined : new Uint8Array(row.data);
      }),
    hasBlob: (hash) => withBusyRetry(path, () => exists.get(hash) !== undefined),
  };
}
