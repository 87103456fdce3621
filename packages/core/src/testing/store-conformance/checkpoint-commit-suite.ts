import { describe, expect, it, type TestContext } from 'vitest';
import { hashBlob } from '../../store/blob-hash.js';
import { createMemoryStore } from '../../store/memory-store.js';
import type { AgentStore, CheckpointBlob } from '../../spec/store/v1/store.js';
import { agentRecord, bytesOf, rejectionCode, type StoreUnderTest } from './records.js';

type CommitCheckpoint = NonNullable<AgentStore['commitCheckpoint']>;

const blobOf = async (text: string): Promise<CheckpointBlob> => {
  const data = new TextEncoder().encode(text);
  return { hash: await hashBlob(data), data };
};

/**
 * `commitCheckpoint` is optional in the spec. Without it these tests are skipped, unless
 * `required` (the suite option `requireCheckpointCommit`) makes them fail instead.
 */
export function checkpointCommitSuite(subject: StoreUnderTest, required: boolean): void {
  const commitOf = (context: TestContext): CommitCheckpoint => {
    const store = subject.current();
    if (store.commitCheckpoint === undefined) {
      if (required) throw new Error('The store has no commitCheckpoint, and the suite was told it must have one (requireCheckpointCommit).');
      context.skip('the store has no commitCheckpoint');
    }
    return (store.commitCheckpoint as CommitCheckpoint).bind(store);
  };

  describe('checkpoint commit', () => {
    it('stores the blobs and applies the patch to the agent row; returns the updated record', async (context) => {
      const commit = commitOf(context);
      const { agents, checkpoints } = subject.current();
      await agents.put(agentRecord('agent-1', { lease: { runId: 'run-1', owner: 'me', expiresAt: 5 } }));
      const message = await blobOf('{"role":"user","content":"hello"}');
      const root = await blobOf('{"v":1,"append":["..."]}');
      const updated = await commit('agent-1', [message, root], { checkpointRoot: root.hash, mode: 'plan', updatedAt: 1_700_000_000_500 });
      const expected = agentRecord('agent-1', { checkpointRoot: root.hash, mode: 'plan', updatedAt: 1_700_000_000_500, lease: { runId: 'run-1', owner: 'me', expiresAt: 5 } });
      expect(updated).toEqual(expected);
      expect(await agents.get('agent-1')).toEqual(expected);
      for (const blob of [message, root]) expect(await checkpoints.getBlob(blob.hash)).toEqual(blob.data);
    });

    it('leaves a stored blob alone and takes an empty batch (a pointer move only)', async (context) => {
      const commit = commitOf(context);
      const { agents, checkpoints } = subject.current();
      await agents.put(agentRecord('agent-1'));
      const kept = await blobOf('kept');
      await checkpoints.putBlob(kept.hash, kept.data);
      await commit('agent-1', [kept, kept], { checkpointRoot: kept.hash });
      expect(Array.from((await checkpoints.getBlob(kept.hash)) as Uint8Array)).toEqual(Array.from(kept.data));
      expect((await commit('agent-1', [], { checkpointRoot: null })).checkpointRoot).toBeNull();
    });

    it('a missing agent rejects with not_found and stores no blob', async (context) => {
      const commit = commitOf(context);
      const blob = await blobOf('orphan');
      expect(await rejectionCode(commit('agent-missing', [blob], { checkpointRoot: blob.hash }))).toBe('not_found');
      expect(await subject.current().checkpoints.hasBlob(blob.hash)).toBe(false);
    });

    it('a bad hash rejects with invalid_argument before anything is written', async (context) => {
      const commit = commitOf(context);
      const { agents, checkpoints } = subject.current();
      await agents.put(agentRecord('agent-1'));
      const good = await blobOf('good');
      expect(await rejectionCode(commit('agent-1', [good, { hash: 'not-a-hash', data: bytesOf(1) }], { checkpointRoot: good.hash }))).toBe('invalid_argument');
      expect(await checkpoints.hasBlob(good.hash)).toBe(false);
      expect((await agents.get('agent-1'))?.checkpointRoot).toBeNull();
    });

    it('called on a copy of the store with its checkpoints replaced, writes the blobs to the replacement', async (context) => {
      commitOf(context);
      const store = subject.current();
      const elsewhere = createMemoryStore().checkpoints;
      const copy = { ...store, checkpoints: elsewhere };
      await store.agents.put(agentRecord('agent-1'));
      const blob = await blobOf('root');
      await (copy.commitCheckpoint as CommitCheckpoint).call(copy, 'agent-1', [blob], { checkpointRoot: blob.hash });
      expect(await elsewhere.hasBlob(blob.hash)).toBe(true);
      expect(await store.checkpoints.hasBlob(blob.hash)).toBe(false);
      expect((await store.agents.get('agent-1'))?.checkpointRoot).toBe(blob.hash);
    });
  });
}

/** Only for stores with a `reopen` option: a commit survives close and reopen. */
export function checkpointCommitPersistenceSuite(subject: StoreUnderTest, reopen: (store: AgentStore) => Promise<AgentStore>, required: boolean): void {
  describe('checkpoint commit across reopen', () => {
    it('keeps the blobs and the pointer', async (context) => {
      const store = subject.current();
      if (store.commitCheckpoint === undefined) {
        if (required) throw new Error('The store has no commitCheckpoint, and the suite was told it must have one (requireCheckpointCommit).');
        context.skip('the store has no commitCheckpoint');
      }
      await store.agents.put(agentRecord('agent-1'));
      const blob = await blobOf('durable root');
      await store.commitCheckpoint?.('agent-1', [blob], { checkpointRoot: blob.hash });
      const reopened = await reopen(store);
      subject.replace(reopened);
      expect((await reopened.agents.get('agent-1'))?.checkpointRoot).toBe(blob.hash);
      expect(await reopened.checkpoints.getBlob(blob.hash)).toEqual(blob.data);
    });
  });
}
