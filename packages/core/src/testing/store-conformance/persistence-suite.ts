import { describe, expect, it } from 'vitest';
import { hashBlob } from '../../store/blob-hash.js';
import { agentRecord, bytesOf, runRecord, type StoreUnderTest, textDelta } from './records.js';

/** Only for stores with a `reopen` option: everything written survives close and reopen. */
export function persistenceSuite(subject: StoreUnderTest, reopen: (store: ReturnType<StoreUnderTest['current']>) => Promise<ReturnType<StoreUnderTest['current']>>): void {
  describe('persistence across reopen', () => {
    it('keeps agents, leases, blobs, runs and events; appends continue the offsets', async () => {
      const store = subject.current();
      const now = 1_800_000_000_000;
      await store.agents.put(agentRecord('agent-1', { name: 'kept', metadata: { a: [1, { b: null }] } }));
      await store.agents.put(agentRecord('agent-2', { createdAt: 1_700_000_000_001 }));
      await store.agents.update('agent-2', { archived: true });
      await store.agents.put(agentRecord('agent-3'));
      await store.agents.delete('agent-3');
      await store.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'me', expiresAt: now + 1000 }, { now });
      const blob = bytesOf(0xff, 0x00, 0xfe);
      const hash = await hashBlob(blob);
      await store.checkpoints.putBlob(hash, blob);
      await store.runs.create(runRecord('run-1', 'agent-1'));
      await store.runs.update('run-1', { status: 'finished', result: 'ok' });
      await store.runEvents.append('run-1', [textDelta('a'), textDelta('b')]);

      const reopened = await reopen(store);
      subject.replace(reopened);
      expect(await reopened.agents.get('agent-1')).toEqual(
        agentRecord('agent-1', { name: 'kept', metadata: { a: [1, { b: null }] }, lease: { runId: 'run-1', owner: 'me', expiresAt: now + 1000 } }),
      );
      expect((await reopened.agents.get('agent-2'))?.archived).toBe(true);
      expect(await reopened.agents.get('agent-3')).toBeUndefined();
      expect((await reopened.agents.list({ includeArchived: true })).items.map((item) => item.agentId)).toEqual(['agent-2', 'agent-1']);
      expect((await reopened.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'you', expiresAt: now + 2000 }, { now })).acquired).toBe(false);
      expect(Array.from((await reopened.checkpoints.getBlob(hash)) as Uint8Array)).toEqual([0xff, 0x00, 0xfe]);
      expect(await reopened.runs.get('run-1')).toEqual(runRecord('run-1', 'agent-1', { status: 'finished', result: 'ok' }));
      expect(await reopened.runEvents.append('run-1', [textDelta('c')])).toEqual({ lastOffset: 3 });
      expect((await reopened.runEvents.list('run-1')).events.map((stored) => stored.offset)).toEqual([1, 2, 3]);
    });
  });
}
