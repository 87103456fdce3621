import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { stalledTransactionTimeoutMs, transaction } from '../src/sql.js';
import { describePostgres } from '../src/testing/index.js';
import { agentRecord, storesOnFreshSchema } from './helpers.js';

describePostgres('postgres store: a holder paused inside a transaction', (url) => {
  const stores = storesOnFreshSchema(url);

  it('does not block a takeover of its lease past the stall timeout, and its transaction fails with a clear error', async () => {
    const a = await stores.open();
    const b = await stores.open();
    await a.agents.put(agentRecord('agent-1'));
    expect(await a.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-a', expiresAt: Date.now() + 200 })).toEqual({ acquired: true });
    // What a fenced write holds while its process is stopped between two statements: the agent row, FOR SHARE.
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const paused = transaction(a.pool, async (client) => {
      await client.query(`SELECT lease_fence FROM "${stores.schema()}".agents WHERE agent_id = $1 FOR SHARE`, ['agent-1']);
      locked();
      await sleep(stalledTransactionTimeoutMs + 3_000);
    }).then(() => undefined, (error: unknown) => error);
    await holding;
    await sleep(300);

    const started = Date.now();
    expect(await b.agents.acquireLease('agent-1', { runId: 'run-1', owner: 'worker-b', expiresAt: Date.now() + 60_000 })).toEqual({ acquired: true });
    // Postgres ended the idle transaction, which freed the row; a lock wait that lasted until A woke would take 13 s.
    expect(Date.now() - started).toBeLessThan(stalledTransactionTimeoutMs + 2_000);
    expect(await paused).toMatchObject({ code: 'store_transaction_stalled', message: expect.stringContaining('rolled it back') });
    // The pool dropped the dead connection: A's next statements work.
    expect((await a.agents.get('agent-1'))?.lease).toMatchObject({ owner: 'worker-b' });
  }, 30_000);
});
