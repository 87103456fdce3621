import type { CheckpointStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { invalidArgumentError } from './store-errors.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

export function createSqliteCheckpointStore(database: Database.Database, path: string): CheckpointStore {
  // Content-addressed and never rewritten: a second put of the same hash is ignored.
  const insert = database.prepare('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)');
  const select = database.prepare<[string], { data: Buffer }>('SELECT data FROM blobs WHERE hash = ?');
  const exists = database.prepare<[string], { found: number }>('SELECT 1 AS found FROM blobs WHERE hash = ?');

  return {
    putBlob: (hash, data) => {
      if (!blobHashPattern.test(hash)) {
        return Promise.reject(invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256).`));
      }
      // Only the view's bytes, not the whole backing ArrayBuffer.
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      return withBusyRetry(path, () => void insert.run(hash, bytes));
    },
    getBlob: (hash) =>
      withBusyRetry(path, () => {
        const row = select.get(hash);
        return row === undefined ? undefined : new Uint8Array(row.data);
      }),
    hasBlob: (hash) => withBusyRetry(path, () => exists.get(hash) !== undefined),
  };
}
