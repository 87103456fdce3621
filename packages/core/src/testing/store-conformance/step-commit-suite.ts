import { describe, expect, it, type TestContext } from 'vitest';
import { hashBlob } from '../../store/blob-hash.js';
import { createMemoryStore } from '../../store/memory-store.js';
import type { AgentStore, CheckpointBlob, StepCommit } from '../../spec/store/v1/store.js';
import { agentRecord, bytesOf, rejectionCode, runRecord, type StoreUnderTest, textDelta } from './records.js';

type CommitStep = NonNullable<AgentStore['commitStep']>;

const blobOf = async (text: string): Promise<CheckpointBlob> => {
  const data = new TextEncoder().encode(text);
  return { hash: await hashBlob(data), data };
};

const stepOf = (root: CheckpointBlob, events: StepCommit['events'], extra: Partial<StepCommit> = {}): StepCommit => ({
  agentId: 'agent-1', blobs: [root], agentPatch: { checkpointRoot: root.hash }, runId: 'run-1', events, ...extra,
});

const offsetsOf = async (store: AgentStore, runId: string) => (await store.runEvents.list(runId)).events.map((event) => event.offset);

/**
 * `commitStep` is optional in the spec. Without it these tests are skipped, unless `required` (the
 * suite option `requireStepCommit`) makes them fail instead.
 */
export function stepCommitSuite(subject: StoreUnderTest, required: boolean): void {
  const commitOf = (context: TestContext): CommitStep => {
    const store = subject.current();
    if (store.commitStep === undefined) {
      if (required) throw new Error('The store has no commitStep, and the suite was told it must have one (requireStepCommit).');
      context.skip('the store has no commitStep');
    }
    return (store.commitStep as CommitStep).bind(store);
  };

  describe('step commit', () => {
    it('stores the blobs, moves the agent row and appends the events after the log\'s last one', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      await store.runEvents.append('run-1', [textDelta('a')]);
      const root = await blobOf('{"v":1,"append":[]}');
      const result = await commit(stepOf(root, [textDelta('b'), textDelta('c')], { agentPatch: { checkpointRoot: root.hash, updatedAt: 1_700_000_000_500 } }));
      const expected = agentRecord('agent-1', { checkpointRoot: root.hash, updatedAt: 1_700_000_000_500 });
      expect(result).toEqual({ agent: expected, lastOffset: 3 });
      expect(await store.agents.get('agent-1')).toEqual(expected);
      expect(await store.checkpoints.getBlob(root.hash)).toEqual(root.data);
      const listed = await store.runEvents.list('run-1');
      expect(listed.events).toEqual([{ offset: 1, event: textDelta('a') }, { offset: 2, event: textDelta('b') }, { offset: 3, event: textDelta('c') }]);
      // The next append goes on after them.
      expect(await store.runEvents.append('run-1', [textDelta('d')])).toEqual({ lastOffset: 4 });
    });

    it('takes no events (a checkpoint only) and a run without a log yet', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      const first = await blobOf('first root');
      expect((await commit(stepOf(first, []))).lastOffset).toBe(0);
      expect(await offsetsOf(store, 'run-1')).toEqual([]);
      const second = await blobOf('second root');
      expect((await commit(stepOf(second, [textDelta('x')], { runId: 'run-new' }))).lastOffset).toBe(1);
      expect(await offsetsOf(store, 'run-new')).toEqual([1]);
      expect((await store.agents.get('agent-1'))?.checkpointRoot).toBe(second.hash);
    });

    it('copies the events in: changing them afterwards changes nothing stored', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      const event = textDelta('before');
      await commit(stepOf(await blobOf('root'), [event]));
      (event as { update: { text: string } }).update.text = 'after';
      expect((await store.runEvents.list('run-1')).events[0]?.event).toEqual(textDelta('before'));
    });

    it('applies a run patch to the run row in the same commit, and returns the updated row', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      await store.runs.create(runRecord('run-1', 'agent-1'));
      const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 0, totalTokens: 12 };
      const result = await commit(stepOf(await blobOf('root with usage'), [textDelta('u')], { runPatch: { usage, updatedAt: 1_700_000_000_900 } }));
      const expected = runRecord('run-1', 'agent-1', { usage, updatedAt: 1_700_000_000_900 });
      expect(result.run).toEqual(expected);
      expect(await store.runs.get('run-1')).toEqual(expected);
      expect(await offsetsOf(store, 'run-1')).toEqual([1]);
    });

    it('a run patch for a missing run rejects with not_found and writes nothing', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      const root = await blobOf('root for no run');
      expect(await rejectionCode(commit(stepOf(root, [textDelta('lost')], { runPatch: { updatedAt: 1 } })))).toBe('not_found');
      expect(await store.checkpoints.hasBlob(root.hash)).toBe(false);
      expect(await offsetsOf(store, 'run-1')).toEqual([]);
      expect((await store.agents.get('agent-1'))?.checkpointRoot).toBeNull();
    });

    it('a missing agent rejects with not_found and writes neither blobs nor events', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      const root = await blobOf('orphan root');
      expect(await rejectionCode(commit(stepOf(root, [textDelta('lost')], { agentId: 'agent-missing' })))).toBe('not_found');
      expect(await store.checkpoints.hasBlob(root.hash)).toBe(false);
      expect(await offsetsOf(store, 'run-1')).toEqual([]);
    });

    it('a bad hash rejects with invalid_argument before anything is written', async (context) => {
      const commit = commitOf(context);
      const store = subject.current();
      await store.agents.put(agentRecord('agent-1'));
      const good = await blobOf('good');
      const step = stepOf(good, [textDelta('lost')], { blobs: [good, { hash: 'not-a-hash', data: bytesOf(1) }] });
      expect(await rejectionCode(commit(step))).toBe('invalid_argument');
      expect(await store.checkpoints.hasBlob(good.hash)).toBe(false);
      expect(await offsetsOf(store, 'run-1')).toEqual([]);
      expect((await store.agents.get('agent-1'))?.checkpointRoot).toBeNull();
    });

    it('called on a copy of the store with its run events replaced, appends the events to the replacement', async (context) => {
      commitOf(context);
      const store = subject.current();
      const elsewhere = createMemoryStore().runEvents;
      const copy = { ...store, runEvents: elsewhere };
      await store.agents.put(agentRecord('agent-1'));
      const root = await blobOf('root of the copy');
      await (copy.commitStep as CommitStep).call(copy, stepOf(root, [textDelta('there')]));
      expect(await offsetsOf({ ...store, runEvents: elsewhere }, 'run-1')).toEqual([1]);
      expect(await offsetsOf(store, 'run-1')).toEqual([]);
      expect((await store.agents.get('agent-1'))?.checkpointRoot).toBe(root.hash);
      expect(await store.checkpoints.hasBlob(root.hash)).toBe(true);
    });
  });
}

/** Only for stores with a `reopen` option: a step commit survives close and reopen. */
export function stepCommitPersistenceSuite(subject: StoreUnderTest, reopen: (store: AgentStore) => Promise<AgentStore>, required: boolean): void {
  describe('step commit across reopen', () => {
    it('keeps the blobs, the pointer and the events', async (context) => {
      const store = subject.current();
      if (store.commitStep === undefined) {
        if (required) throw new Error('The store has no commitStep, and the suite was told it must have one (requireStepCommit).');
        context.skip('the store has no commitStep');
      }
      await store.agents.put(agentRecord('agent-1'));
      const root = await blobOf('durable step root');
      await store.commitStep?.(stepOf(root, [textDelta('kept')]));
      const reopened = await reopen(store);
      subject.replace(reopened);
      expect((await reopened.agents.get('agent-1'))?.checkpointRoot).toBe(root.hash);
      expect(await reopened.checkpoints.getBlob(root.hash)).toEqual(root.data);
      expect((await reopened.runEvents.list('run-1')).events).toEqual([{ offset: 1, event: textDelta('kept') }]);
    });
  });
}
