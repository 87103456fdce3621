import { setTimeout as sleep } from 'node:timers/promises';
import { type ApprovalRecord, hashBlob, LeaseLostError } from '@cairn/core';
import { expect, it } from 'vitest';
import type { PostgresStore } from '../src/index.js';
import { describePostgres } from '../src/testing/index.js';
import { agentRecord, runRecord, storesOnFreshSchema, textDelta, textOf } from './helpers.js';

const approval: ApprovalRecord = {
  runId: 'run-1', agentId: 'agent-1', callId: 'call-1', kind: 'tool', toolName: 'shell', reason: 'asks', status: 'pending', createdAt: 1_700_000_000_000,
};

async function expectLeaseLost(write: Promise<unknown>): Promise<void> {
  const error = await write.then(() => undefined, (caught: unknown) => caught);
  expect(LeaseLostError.isInstance(error), `expected LeaseLostError, got ${String(error)}`).toBe(true);
  expect(error).toMatchObject({ code: 'lease_lost', agentId: 'agent-1', runId: 'run-1' });
}

/** Worker A runs run-1 with a short lease; once it expired on the database clock, worker B takes the same run over. */
async function takeOver(a: PostgresStore, b: PostgresStore): Promise<{ fenceA: number; fenceB: number }> {
  await a.agents.put(agentRecord('agent-1'));
  expect(await a.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-a', expiresAt: Date.now() + 200 })).toEqual({ acquired: true });
  await a.runs.create(runRecord('run-1', 'agent-1'));
  await a.runEvents.append('run-1', [textDelta('a1')]);
  const fenceA = a.leaseFence('agent-1') as number;
  expect(fenceA).toBeGreaterThan(0);
  // Polls until the lease expired (the test timeout is the only bound); B's clock plays no part.
  while (!(await b.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-b', expiresAt: Date.now() + 60_000 })).acquired) await sleep(50);
  const fenceB = b.leaseFence('agent-1') as number;
  expect(fenceB).toBeGreaterThan(fenceA);
  await b.runEvents.append('run-1', [textDelta('b1')]);
  return { fenceA, fenceB };
}

/** Nothing A tried after the takeover is in the store; B's lease and writes are. */
async function expectNothingOfA(reader: PostgresStore, blobHash: string): Promise<void> {
  expect((await reader.runEvents.list('run-1')).events.map((stored) => textOf(stored.event))).toEqual(['a1', 'b1']);
  expect(await reader.runs.get('run-1')).toEqual(runRecord('run-1', 'agent-1'));
  expect(await reader.runs.get('run-2')).toBeUndefined();
  const agent = await reader.agents.get('agent-1');
  expect(agent?.name).toBeUndefined();
  expect(agent).toMatchObject({ checkpointRoot: null, lease: { runId: 'run-1', owner: 'worker-b' } });
  expect(await reader.checkpoints.hasBlob(blobHash)).toBe(false);
  expect(await reader.approvals.list()).toEqual([]);
}

describePostgres('postgres store: leases fence the writes of a worker that lost its lease', (url) => {
  const stores = storesOnFreshSchema(url);
  const blob = { data: new TextEncoder().encode('root of A'), hash: '' };

  // Each write is the first one A makes after the takeover, so the database check (not the
  // instance's memory of an earlier rejection) is what refuses it.
  const firstWrites: Record<string, (a: PostgresStore) => Promise<unknown>> = {
    'runEvents.append': (a) => a.runEvents.append('run-1', [textDelta('a2')]),
    'runs.update': (a) => a.runs.update('run-1', { status: 'finished', result: 'from A' }),
    'runs.create': (a) => a.runs.create(runRecord('run-2', 'agent-1')),
    'agents.update': (a) => a.agents.update('agent-1', { name: 'from A' }),
    'agents.put': (a) => a.agents.put(agentRecord('agent-1', { name: 'from A' })),
    commitCheckpoint: (a) => a.commitCheckpoint('agent-1', [blob], { checkpointRoot: blob.hash }),
    'approvals.request': (a) => a.approvals.request([approval]),
  };

  for (const [name, write] of Object.entries(firstWrites)) {
    it(`${name} from the old holder is rejected with LeaseLostError and lands nothing`, async () => {
      blob.hash = await hashBlob(blob.data);
      const [a, b] = [await stores.open(), await stores.open()];
      await takeOver(a, b);
      await expectLeaseLost(write(a));
      expect(a.leaseFence('agent-1')).toBeUndefined();
      await expectNothingOfA(b, blob.hash);
    });
  }

  it('after one rejection every later write of the old holder is rejected too; its renew is false and its release leaves B alone', async () => {
    blob.hash = await hashBlob(blob.data);
    const [a, b] = [await stores.open(), await stores.open()];
    await takeOver(a, b);
    for (const write of Object.values(firstWrites)) await expectLeaseLost(write(a));
    expect(await a.agents.renewLease('agent-1', 'run-1', Date.now() + 60_000)).toBe(false);
    await a.agents.releaseLease('agent-1', 'run-1');
    await expectNothingOfA(b, blob.hash);
    // B goes on.
    expect(await b.agents.renewLease('agent-1', 'run-1', Date.now() + 90_000)).toBe(true);
    expect((await b.runEvents.append('run-1', [textDelta('b2')])).lastOffset).toBe(3);
  });

  it("the old holder's heartbeat after a takeover returns false, even for the same run id", async () => {
    const [a, b] = [await stores.open(), await stores.open()];
    await takeOver(a, b);
    expect(await a.agents.renewLease('agent-1', 'run-1', Date.now() + 60_000)).toBe(false);
    expect(a.leaseFence('agent-1')).toBeUndefined();
    expect((await b.agents.get('agent-1'))?.lease).toMatchObject({ owner: 'worker-b' });
  });

  it('the same run from another owner is another holder; the holder re-acquiring keeps its fence; force moves it', async () => {
    const [b, c] = [await stores.open(), await stores.open()];
    await b.agents.put(agentRecord('agent-1'));
    const leaseB = { runId: 'run-1', owner: 'worker-b', expiresAt: Date.now() + 60_000 };
    await b.agents.acquireLease('agent-1', leaseB);
    const fence = b.leaseFence('agent-1') as number;
    expect(await c.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-c', expiresAt: Date.now() + 60_000 })).toEqual({ acquired: false, holder: leaseB });
    expect(await b.agents.acquireLease('agent-1', { ...leaseB, expiresAt: leaseB.expiresAt + 1000 })).toEqual({ acquired: true });
    expect(b.leaseFence('agent-1')).toBe(fence);
    expect(await c.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-c', expiresAt: Date.now() + 60_000 }, { force: true })).toEqual({ acquired: true });
    expect(c.leaseFence('agent-1')).toBe(fence + 1);
    await expectLeaseLost(b.runEvents.append('run-1', [textDelta('late')]));
  });

  it("writes to another run of the leased agent are fenced too (its agent looked up in runs)", async () => {
    const [a, b, other] = [await stores.open(), await stores.open(), await stores.open()];
    await other.agents.put(agentRecord('agent-1'));
    // An earlier run of the agent, written by another instance: A has never seen it.
    await other.runs.create(runRecord('run-0', 'agent-1'));
    await a.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-a', expiresAt: Date.now() + 200 });
    await a.runs.update('run-0', { status: 'error' });
    await a.runEvents.append('run-0', [textDelta('closing')]);
    while (!(await b.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-b', expiresAt: Date.now() + 60_000 })).acquired) await sleep(50);
    await expectLeaseLost(a.runs.update('run-0', { status: 'finished' }));
    expect((await b.runs.get('run-0'))?.status).toBe('error');
    // A run of another agent is no business of this lease.
    await other.runs.create(runRecord('run-x', 'agent-2'));
    expect((await a.runs.update('run-x', { status: 'finished' })).status).toBe('finished');
    expect((await a.runEvents.append('run-x', [textDelta('x')])).lastOffset).toBe(1);
  });

  it('an instance holding no fence writes unfenced (a canceller, an approver); reads are never fenced', async () => {
    const [a, b, other] = [await stores.open(), await stores.open(), await stores.open()];
    await takeOver(a, b);
    const updated = await other.runs.update('run-1', { metadata: { cancelRequested: true } });
    expect(updated.metadata).toEqual({ cancelRequested: true });
    await other.approvals.request([approval]);
    expect((await other.approvals.decide('run-1', 'call-1', { approved: true }))?.status).toBe('approved');
    expect(await a.runs.get('run-1')).toEqual(updated);
    expect((await a.runEvents.list('run-1')).events).toHaveLength(2);
  });

  it('a release moves the fence: a write still in flight from the released holding cannot land after it', async () => {
    const store = await stores.open();
    const other = await stores.open();
    await store.agents.put(agentRecord('agent-1'));
    await store.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-a', expiresAt: Date.now() + 60_000 });
    const fence = store.leaseFence('agent-1') as number;
    // Another process releases the lease on the run's behalf (a forced stop): A's fence is gone.
    await other.agents.releaseLease('agent-1', 'run-1');
    await expectLeaseLost(store.runEvents.append('run-1', [textDelta('after release')]));
    expect((await other.agents.get('agent-1'))?.lease).toBeNull();
    await other.agents.acquireLease('agent-1', { runId: 'run-9', owner: 'worker-z', expiresAt: Date.now() + 60_000 });
    expect(other.leaseFence('agent-1')).toBe(fence + 2);
  });
});
