import { describe, expect, it } from 'vitest';
import { hashBlob } from './blob-hash.js';
import { createMemoryCheckpointStore } from './memory-checkpoints.js';

const blob = async (text: string) => {
  const data = new TextEncoder().encode(text);
  return { hash: await hashBlob(data), data };
};

describe('the memory checkpoint store', () => {
  it('putBlobs stores each blob once, as putBlob would', async () => {
    const store = createMemoryCheckpointStore();
    const one = await blob('one');
    const two = await blob('two');
    await store.putBlobs([one, two, one]);
    expect(new TextDecoder().decode(await store.getBlob(one.hash))).toBe('one');
    expect(await store.hasBlob(two.hash)).toBe(true);
  });

  it('putBlobs stores nothing of a batch with a bad hash', async () => {
    const store = createMemoryCheckpointStore();
    const good = await blob('good');
    await expect(store.putBlobs([good, { hash: 'nope', data: new Uint8Array() }])).rejects.toThrow(/Invalid blob hash "nope"/);
    expect(await store.hasBlob(good.hash)).toBe(false);
  });
});
