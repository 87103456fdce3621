import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it, vi } from 'vitest';
import { describePostgres } from '../src/testing/index.js';
import { agentRecord, sql, storesOnFreshSchema } from './helpers.js';

const hour = 3_600_000;

/** Runs `work` with this process's Date.now() off by `skewMs` (timers keep real time). */
async function withClockSkew<T>(skewMs: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(Date.now() + skewMs));
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

describePostgres('postgres store: leases are timed by the database clock', (url) => {
  const stores = storesOnFreshSchema(url);
  afterEach(() => {
    vi.useRealTimers();
  });
  const deadlineOf = async (schema: string) =>
    (await sql<{ ms: number }>(url, `SELECT (extract(epoch FROM lease_deadline - clock_timestamp()) * 1000)::float8 AS ms FROM "${schema}".agents WHERE agent_id = 'agent-1'`))[0]?.ms;

  it('a lease taken by a worker whose clock is an hour ahead still expires after its ttl on the database clock', async () => {
    const [skewed, other] = [await stores.open(), await stores.open()];
    await skewed.agents.put(agentRecord('agent-1'));
    const lease = await withClockSkew(hour, async () => {
      const taken = { runId: 'run-1', owner: 'skewed', expiresAt: Date.now() + 300 };
      expect(await skewed.agents.acquireLease('agent-1', taken)).toEqual({ acquired: true });
      return taken;
    });
    // The record keeps expiresAt as given (an hour in this clock's future); the deadline is the ttl.
    expect((await other.agents.get('agent-1'))?.lease).toEqual(lease);
    expect(await deadlineOf(stores.schema())).toBeLessThanOrEqual(300);
    // On the caller's own timeline (`now` given) it is still live: expiresAt is an hour away.
    expect((await other.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'other', expiresAt: Date.now() + 60_000 }, { now: Date.now() })).acquired).toBe(false);
    // Without `now` the database clock decides: once the 300 ms pass, the lease is free.
    while (!(await other.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'other', expiresAt: Date.now() + 60_000 })).acquired) await sleep(50);
    expect((await other.agents.get('agent-1'))?.lease?.owner).toBe('other');
  });

  it('a worker whose clock is two hours ahead cannot steal a live lease', async () => {
    const [holder, skewed] = [await stores.open(), await stores.open()];
    await holder.agents.put(agentRecord('agent-1'));
    const lease = { runId: 'run-1', owner: 'holder', expiresAt: Date.now() + 60_000 };
    await holder.agents.acquireLease('agent-1', lease);
    // By the skewed clock the holder's expiresAt passed long ago; the database clock says a minute is left.
    const result = await withClockSkew(2 * hour, () => skewed.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'skewed', expiresAt: Date.now() + 60_000 }));
    expect(result).toEqual({ acquired: false, holder: lease });
  });

  it('a worker whose clock is an hour behind keeps its lease for the ttl it asked, on the database clock', async () => {
    const [late, other] = [await stores.open(), await stores.open()];
    await late.agents.put(agentRecord('agent-1'));
    await withClockSkew(-hour, () => late.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'late', expiresAt: Date.now() + 60_000 }));
    // Its expiresAt is an hour in the other worker's past, yet the lease has a minute left.
    expect((await other.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'other', expiresAt: Date.now() + 60_000 })).acquired).toBe(false);
    // A renew measured on the same late clock grants what it asks (200 ms) on the database clock, no more.
    expect(await withClockSkew(-hour, () => late.agents.renewLease('agent-1', 'run-1', Date.now() + 200))).toBe(true);
    expect(await deadlineOf(stores.schema())).toBeLessThanOrEqual(200);
    while (!(await other.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'other', expiresAt: Date.now() + 60_000 })).acquired) await sleep(50);
    expect(await late.agents.renewLease('agent-1', 'run-1', Date.now() + 60_000)).toBe(false);
  });

  it('a renew moves the deadline on the database clock', async () => {
    const [holder, other] = [await stores.open(), await stores.open()];
    await holder.agents.put(agentRecord('agent-1'));
    await holder.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'holder', expiresAt: Date.now() + 200 });
    expect(await holder.agents.renewLease('agent-1', 'run-1', Date.now() + 60_000)).toBe(true);
    expect(await deadlineOf(stores.schema())).toBeGreaterThan(30_000);
    await sleep(300);
    expect((await other.agents.acquireLease('agent-1', { runId: 'run-2', owner: 'other', expiresAt: Date.now() + 60_000 })).acquired).toBe(false);
  });
});
