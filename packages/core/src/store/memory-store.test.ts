import { describe, expect, it } from 'vitest';
import { runStoreConformance } from '../testing/store-conformance.js';
import { hashBlob } from './blob-hash.js';
import { composeStore } from './compose-store.js';
import { createMemoryStore } from './memory-store.js';

runStoreConformance('memory', () => createMemoryStore(), { requireApprovals: true, requireCheckpointCommit: true, requireStepCommit: true });

runStoreConformance('composed from two memory stores', () => {
  const first = createMemoryStore();
  const second = createMemoryStore();
  return composeStore({ agents: first.agents, runs: first.runs, checkpoints: second.checkpoints, runEvents: second.runEvents, approvals: second.approvals });
}, { requireApprovals: true });

// The reference SDK's four-part shape: approvals are optional, and their tests are skipped.
runStoreConformance('composed without approvals', () => {
  const { agents, checkpoints, runs, runEvents } = createMemoryStore();
  return composeStore({ agents, checkpoints, runs, runEvents });
});

describe('memory store', () => {
  it('is not shared between processes', () => {
    expect(createMemoryStore().shared).toBe(false);
  });

  it('hashBlob is the SHA-256 hex of the bytes', async () => {
    expect(await hashBlob(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await hashBlob(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('composeStore', () => {
  it('closes each listed store once and reports shared as given', async () => {
    const closed: string[] = [];
    const base = createMemoryStore();
    const closing = { ...base, close: () => void closed.push('base') };
    const composed = composeStore({ ...base, shared: true, closes: [closing, closing] });
    expect(composed.shared).toBe(true);
    await composed.close?.();
    expect(closed).toEqual(['base']);
  });

  it('passes approvals through when a part provides them, and leaves the key out otherwise', () => {
    const base = createMemoryStore();
    expect(composeStore(base).approvals).toBe(base.approvals);
    const { approvals: _left, ...fourParts } = base;
    expect('approvals' in composeStore(fourParts)).toBe(false);
  });

  it('leaves commitCheckpoint out, even when every part comes from one store: parts may be different backends', () => {
    const base = createMemoryStore();
    expect(base.commitCheckpoint).toBeTypeOf('function');
    expect('commitCheckpoint' in composeStore(base)).toBe(false);
  });

  it('rethrows a failing close after closing the others', async () => {
    const closed: string[] = [];
    const base = createMemoryStore();
    const failing = { ...base, close: () => { throw new Error('disk gone'); } };
    const other = { ...base, close: () => void closed.push('other') };
    const composed = composeStore({ ...base, closes: [failing, other] });
    await expect(composed.close?.()).rejects.toThrow('disk gone');
    expect(closed).toEqual(['other']);
  });
});
