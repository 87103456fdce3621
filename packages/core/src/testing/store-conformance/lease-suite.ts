import { describe, expect, it } from 'vitest';
import type { AgentLease } from '../../spec/store/v1/store.js';
import { agentRecord, rejectionCode, type StoreUnderTest } from './records.js';

const now = 1_800_000_000_000;
const lease = (runId: string, expiresAt = now + 30_000): AgentLease => ({ runId, owner: `process-${runId}`, expiresAt });

export function leaseSuite(subject: StoreUnderTest): void {
  const agents = () => subject.current().agents;
  const withAgent = () => agents().put(agentRecord('agent-lease'));

  describe('agent leases', () => {
    it('acquires a free lease and records it on the agent', async () => {
      await withAgent();
      expect(await agents().acquireLease('agent-lease', lease('run-1'), { now })).toEqual({ acquired: true });
      expect((await agents().get('agent-lease'))?.lease).toEqual(lease('run-1'));
    });

    it('refuses a held, unexpired lease and returns the holder', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      expect(await agents().acquireLease('agent-lease', lease('run-2'), { now: now + 1000 })).toEqual({
        acquired: false,
        holder: lease('run-1'),
      });
      expect((await agents().get('agent-lease'))?.lease?.runId).toBe('run-1');
    });

    it('takes an expired lease (expiresAt <= now)', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1', now + 10), { now });
      expect(await agents().acquireLease('agent-lease', lease('run-2'), { now: now + 10 })).toEqual({ acquired: true });
      expect((await agents().get('agent-lease'))?.lease?.runId).toBe('run-2');
    });

    it('the same run from another process is another holder until the lease expires', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      const resumer: AgentLease = { runId: 'run-1', owner: 'process-resumer', expiresAt: now + 60_000 };
      expect(await agents().acquireLease('agent-lease', resumer, { now: now + 1000 })).toEqual({ acquired: false, holder: lease('run-1') });
      expect(await agents().acquireLease('agent-lease', resumer, { now: now + 30_000 })).toEqual({ acquired: true });
      expect((await agents().get('agent-lease'))?.lease).toEqual(resumer);
    });

    it('takes a held lease with force', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      expect(await agents().acquireLease('agent-lease', lease('run-2'), { now, force: true })).toEqual({ acquired: true });
      expect((await agents().get('agent-lease'))?.lease).toEqual(lease('run-2'));
    });

    it('re-acquiring by the holding run succeeds', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      expect(await agents().acquireLease('agent-lease', lease('run-1', now + 60_000), { now })).toEqual({ acquired: true });
      expect((await agents().get('agent-lease'))?.lease?.expiresAt).toBe(now + 60_000);
    });

    it('uses the current time when now is not given', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-old', Date.now() - 1000));
      expect(await agents().acquireLease('agent-lease', lease('run-new', Date.now() + 60_000))).toEqual({ acquired: true });
      expect((await agents().acquireLease('agent-lease', lease('run-late', Date.now() + 60_000))).acquired).toBe(false);
    });

    it('renews only for the holder', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      expect(await agents().renewLease('agent-lease', 'run-2', now + 90_000)).toBe(false);
      expect((await agents().get('agent-lease'))?.lease?.expiresAt).toBe(now + 30_000);
      expect(await agents().renewLease('agent-lease', 'run-1', now + 90_000)).toBe(true);
      expect((await agents().get('agent-lease'))?.lease).toEqual(lease('run-1', now + 90_000));
      expect(await agents().renewLease('agent-missing', 'run-1', now)).toBe(false);
    });

    it('releases only for the holder', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      await agents().releaseLease('agent-lease', 'run-2');
      expect((await agents().get('agent-lease'))?.lease?.runId).toBe('run-1');
      await agents().releaseLease('agent-lease', 'run-1');
      expect((await agents().get('agent-lease'))?.lease).toBeNull();
      expect(await agents().renewLease('agent-lease', 'run-1', now + 90_000)).toBe(false);
      await agents().releaseLease('agent-missing', 'run-1');
    });

    it('a released lease can be taken by another run', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      await agents().releaseLease('agent-lease', 'run-1');
      expect(await agents().acquireLease('agent-lease', lease('run-2'), { now })).toEqual({ acquired: true });
    });

    it('an update that does not name the lease keeps it', async () => {
      await withAgent();
      await agents().acquireLease('agent-lease', lease('run-1'), { now });
      await agents().update('agent-lease', { name: 'renamed', updatedAt: now });
      expect((await agents().get('agent-lease'))?.lease).toEqual(lease('run-1'));
    });

    it('concurrent acquires: exactly one run wins', async () => {
      await withAgent();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) => agents().acquireLease('agent-lease', lease(`run-${index}`), { now })),
      );
      const winners = results.filter((result) => result.acquired);
      expect(winners).toHaveLength(1);
      const holder = (await agents().get('agent-lease'))?.lease;
      for (const result of results) if (!result.acquired) expect(result.holder).toEqual(holder);
    });

    it('acquiring the lease of an unknown agent rejects with code not_found', async () => {
      expect(await rejectionCode(agents().acquireLease('agent-missing', lease('run-1'), { now }))).toBe('not_found');
    });
  });
}
