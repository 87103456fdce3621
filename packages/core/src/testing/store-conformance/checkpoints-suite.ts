import { describe, expect, it } from 'vitest';
import { hashBlob } from '../../store/blob-hash.js';
import { bytesOf, rejectionCode, type StoreUnderTest } from './records.js';

export function checkpointsSuite(subject: StoreUnderTest): void {
  const checkpoints = () => subject.current().checkpoints;

  const putBytes = async (data: Uint8Array) => {
    const hash = await hashBlob(data);
    await checkpoints().putBlob(hash, data);
    return hash;
  };

  describe('checkpoint blobs', () => {
    it('puts, has and gets a blob by its SHA-256 hex', async () => {
      const data = new TextEncoder().encode('{"role":"user","content":"hello"}');
      const hash = await putBytes(data);
      expect(await checkpoints().hasBlob(hash)).toBe(true);
      expect(await checkpoints().getBlob(hash)).toEqual(data);
      const missing = await hashBlob(bytesOf(1, 2, 3));
      expect(await checkpoints().hasBlob(missing)).toBe(false);
      expect(await checkpoints().getBlob(missing)).toBeUndefined();
    });

    it('round-trips arbitrary bytes exactly: non-UTF-8, NUL, empty', async () => {
      const binary = bytesOf(0xff, 0xfe, 0x00, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x90, 0x28, 0xbc, 0x00, 0x80);
      const everyByte = Uint8Array.from({ length: 256 }, (_, index) => index);
      const empty = new Uint8Array(0);
      for (const data of [binary, everyByte, empty]) {
        const hash = await putBytes(data);
        const stored = await checkpoints().getBlob(hash);
        expect(stored).toBeInstanceOf(Uint8Array);
        expect(Array.from(stored as Uint8Array)).toEqual(Array.from(data));
      }
    });

    it('put is idempotent: a second put of the same hash keeps the blob', async () => {
      const data = bytesOf(9, 8, 7);
      const hash = await putBytes(data);
      await checkpoints().putBlob(hash, data);
      expect(Array.from((await checkpoints().getBlob(hash)) as Uint8Array)).toEqual([9, 8, 7]);
    });

    it('copies bytes in and out', async () => {
      const data = bytesOf(1, 2, 3, 4);
      const hash = await putBytes(data);
      data[0] = 42;
      const first = (await checkpoints().getBlob(hash)) as Uint8Array;
      first[1] = 42;
      expect(Array.from((await checkpoints().getBlob(hash)) as Uint8Array)).toEqual([1, 2, 3, 4]);
    });

    it('stores a blob that is a view into a larger buffer as just the view', async () => {
      const backing = bytesOf(0, 0, 5, 6, 7, 0, 0);
      const view = backing.subarray(2, 5);
      const hash = await putBytes(view);
      expect(Array.from((await checkpoints().getBlob(hash)) as Uint8Array)).toEqual([5, 6, 7]);
    });

    it('round-trips a 2 MiB blob', async () => {
      const data = Uint8Array.from({ length: 2 * 1024 * 1024 }, (_, index) => (index * 31 + (index >> 8)) & 0xff);
      const hash = await putBytes(data);
      const stored = (await checkpoints().getBlob(hash)) as Uint8Array;
      expect(stored.byteLength).toBe(data.byteLength);
      expect(await hashBlob(stored)).toBe(hash);
    });

    it('putBlobs (where the store has it) stores a batch as putBlob would, and nothing of a batch with a bad hash', async (context) => {
      const store = checkpoints();
      if (store.putBlobs === undefined) context.skip('the store has no putBlobs');
      const putBlobs = (store.putBlobs as NonNullable<typeof store.putBlobs>).bind(store);
      const entry = async (values: number[]) => ({ hash: await hashBlob(bytesOf(...values)), data: bytesOf(...values) });
      const [one, two, three] = await Promise.all([entry([1]), entry([2, 2]), entry([3, 3, 3])]);
      await store.putBlob(one.hash, one.data);
      await putBlobs([one, two, two, three]);
      for (const blob of [one, two, three]) expect(Array.from((await store.getBlob(blob.hash)) as Uint8Array)).toEqual(Array.from(blob.data));
      await putBlobs([]);
      const four = await entry([4]);
      expect(await rejectionCode(putBlobs([four, { hash: 'not-a-hash', data: bytesOf(5) }]))).toBe('invalid_argument');
      expect(await store.hasBlob(four.hash)).toBe(false);
    });

    it('rejects a key that is not a SHA-256 hex with code invalid_argument', async () => {
      expect(await rejectionCode(checkpoints().putBlob('not-a-hash', bytesOf(1)))).toBe('invalid_argument');
      expect(await rejectionCode(checkpoints().putBlob('A'.repeat(64), bytesOf(1)))).toBe('invalid_argument');
    });
  });
}
