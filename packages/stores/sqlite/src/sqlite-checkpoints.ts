import type { CheckpointBlob, CheckpointStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { invalidArgumentError } from './store-errors.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

function checkHash(hash: string): void {
  if (!blobHashPattern.test(hash)) throw invalidArgumentError(`Invalid blob hash "${hash}": expected 64 lowercase hex characters (SHA-256).`);
}

/** Every hash of a batch is checked before any blob of it is written. */
export function checkBlobHashes(blobs: ReadonlyArray<CheckpointBlob>): void {
  for (const blob of blobs) checkHash(blob.hash);
}

/** Only the view's bytes, not the whole backing ArrayBuffer. */
const bytesOf = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Inserts blobs inside the caller's transaction. Content-addressed and never rewritten: a stored hash is left alone (no read first). */
export function prepareBlobInsert(database: Database.Database): (blobs: ReadonlyArray<CheckpointBlob>) => void {
  const insert = database.prepare('INSERT OR IGNORE INTO blobs (hash, data) VALUES (?, ?)');
  return (blobs) => {
    for (const blob of blobs) insert.run(blob.hash, bytesOf(blob.data));
  };
}

export function createSqliteCheckpointStore(database: Database.Database, path: string): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  const insertBlobs = prepareBlobInsert(database);
  const select = database.prepare<[string], { data: Buffer }>('SELECT data FROM blobs WHERE hash = ?');
  const exists = database.prepare<[string], { found: number }>('SELECT 1 AS found FROM blobs WHERE hash = ?');
  // A checkpoint save's blobs (new messages, state, root) in one commit instead of one each.
  const insertMany = database.transaction(insertBlobs).immediate.bind(null);

  return {
    putBlob: (hash, data) => {
      try {
        checkHash(hash);
      } catch (error) {
        return Promise.reject(error);
      }
      return withBusyRetry(path, () => insertBlobs([{ hash, data }]));
    },
    putBlobs: (blobs) => {
      try {
        checkBlobHashes(blobs);
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
