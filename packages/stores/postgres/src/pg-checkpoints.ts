import type { CheckpointBlob, CheckpointStore } from '@cairn/core';
import { invalidArgumentError } from './errors.js';
import type { PgContext, Queryable } from './sql.js';

const blobHashPattern = /^[0-9a-f]{64}$/;

/** Every hash of a batch is checked before any blob of it is written. */
export function checkBlobHashes(blobs: ReadonlyArray<CheckpointBlob>): void {
  for (const { hash } of blobs) {
    if (typeof hash !== 'string' || !blobHashPattern.test(hash)) {
      throw invalidArgumentError(`Invalid blob hash "${String(hash)}": expected 64 lowercase hex characters (SHA-256).`);
    }
  }
}

/** Only the view's bytes, not the whole backing ArrayBuffer. */
const bytesOf = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/**
 * Inserts blobs in one statement. Content-addressed and never rewritten: a stored hash is left
 * alone (ON CONFLICT DO NOTHING, no read first); repeats within the batch are sent once. Sorted by
 * hash: two batches sharing blobs wait on each other's new keys in one order, never in a cycle.
 */
export async function insertBlobs(db: Queryable, ctx: PgContext, blobs: ReadonlyArray<CheckpointBlob>): Promise<void> {
  const unique = new Map<string, Buffer>();
  for (const blob of blobs) if (!unique.has(blob.hash)) unique.set(blob.hash, bytesOf(blob.data));
  if (unique.size === 0) return;
  const hashes = [...unique.keys()].sort();
  await db.query(
    `INSERT INTO ${ctx.tables.blobs} (hash, data) SELECT hash, data FROM unnest($1::text[], $2::bytea[]) WITH ORDINALITY AS b(hash, data, n) ORDER BY n
     ON CONFLICT (hash) DO NOTHING`,
    [hashes, hashes.map((hash) => unique.get(hash))],
  );
}

/** Blobs are not fenced: a hash names its bytes, so a stale writer's blob is harmless (and unreferenced). */
export function createPgCheckpointStore(ctx: PgContext): CheckpointStore & Required<Pick<CheckpointStore, 'putBlobs'>> {
  return {
    async putBlob(hash, data) {
      checkBlobHashes([{ hash, data }]);
      await ctx.pool.query(`INSERT INTO ${ctx.tables.blobs} (hash, data) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, [hash, bytesOf(data)]);
    },
    async putBlobs(blobs) {
      checkBlobHashes(blobs);
      await insertBlobs(ctx.pool, ctx, blobs);
    },
    async getBlob(hash) {
      const { rows } = await ctx.pool.query<{ data: Buffer }>(`SELECT data FROM ${ctx.tables.blobs} WHERE hash = $1`, [hash]);
      return rows[0] === undefined ? undefined : new Uint8Array(rows[0].data);
    },
    async hasBlob(hash) {
      const { rows } = await ctx.pool.query(`SELECT 1 FROM ${ctx.tables.blobs} WHERE hash = $1`, [hash]);
      return rows.length > 0;
    },
  };
}
