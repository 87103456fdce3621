import type { RunRecord } from '@cairn/core';
import { createPostgresStore, type PostgresStore } from '@cairn/store-postgres';
import { describePostgres, type FreshSchema, freshSchema } from '@cairn/store-postgres/testing';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { graphileTables } from '../src/queue-names.js';
import { reapOnce, type ReaperContext } from '../src/reaper.js';
import { storeTables } from '../src/reaper-sql.js';
import { createRunQueue, type RunQueue } from '../src/run-queue.js';
import { memoryLogger } from './harness.js';
import { agentRecord, queuedRunRecord } from './records.js';

describePostgres('the reaper, one pass at a time', (url) => {
  let schemas: FreshSchema[];
  let admin: pg.Pool;
  let store: PostgresStore;
  let queue: RunQueue;
  let ctx: ReaperContext;
  beforeEach(async () => {
    schemas = [await freshSchema(url), await freshSchema(url)];
    admin = new pg.Pool({ connectionString: url, max: 2 });
    store = await createPostgresStore({ connectionString: url, schema: schemas[0]!.schema, poolSize: 2 });
    queue = await createRunQueue({ connectionString: url, graphileSchema: schemas[1]!.schema, maxAttempts: 3 });
    const tables = { graphile: graphileTables(schemas[1]!.schema), store: storeTables(schemas[0]!.schema) };
    ctx = { pool: admin, store, tables, poolId: 'pool-reaper', owner: 'process-reaper:1@test', held: new Map(), logger: memoryLogger(), intervalMs: 200 };
  });
  afterEach(async () => {
    await queue.close();
    await store.close();
    await admin.end();
    for (const schema of schemas) await schema.drop();
  });

  const jobs = () => admin.query(`SELECT key, locked_by, attempts FROM ${ctx.tables.graphile.jobs} ORDER BY key`).then((result) => result.rows);
  /** A queued run with its job, as a send leaves them. */
  async function queued(agentId: string, runId: string, overrides: Partial<RunRecord> = {}): Promise<void> {
    if (!(await store.agents.get(agentId))) await store.agents.put(agentRecord(agentId));
    await store.runs.create(queuedRunRecord(runId, agentId, overrides));
    await queue.dispatch({ runId, agentId });
  }
  /** graphile's lock of a worker `poolId`, taken `agoMs` ago (and not touched since). */
  async function lockedBy(runId: string, poolId: string, agoMs: number, attempts = 1): Promise<void> {
    await admin.query(`UPDATE ${ctx.tables.graphile.jobs} SET locked_by = $2, locked_at = now() - $3 * interval '1 millisecond', attempts = $4 WHERE key = $1`, [runId, poolId, agoMs, attempts]);
    await admin.query(`UPDATE ${ctx.tables.graphile.queues} q SET locked_by = $2, locked_at = now() FROM ${ctx.tables.graphile.jobs} j WHERE j.key = $1 AND q.id = j.job_queue_id`, [runId, poolId]);
  }
  /** The run's lease, expiring `inMs` from now on the database clock (negative: already expired). */
  const lease = (agentId: string, runId: string, inMs: number, owner = 'process-worker:2@test') => store.agents.acquireLease(agentId, { runId, owner, expiresAt: Date.now() + inMs }, { force: true });

  it('unlocks the job of a worker whose run lease expired and that stopped touching its lock; leaves live and starting workers alone', async () => {
    await queued('agent-dead', 'run-dead');
    await lockedBy('run-dead', 'pool-dead', 10_000);
    await lease('agent-dead', 'run-dead', -1_000);
    // Its run holds a live lease: a slow worker, not a dead one.
    await queued('agent-slow', 'run-slow');
    await lockedBy('run-slow', 'pool-slow', 10_000);
    await lease('agent-slow', 'run-slow', 60_000);
    // Locked a moment ago and no lease yet: a worker still cloning or opening the agent.
    await queued('agent-starting', 'run-starting');
    await lockedBy('run-starting', 'pool-starting', 0);
    // Its run ended: the job is the worker's to complete.
    await queued('agent-ended', 'run-ended');
    await lockedBy('run-ended', 'pool-ended', 10_000);
    await store.runs.update('run-ended', { status: 'finished' });
    await reapOnce(ctx);
    expect(await jobs()).toEqual([
      { key: 'run-dead', locked_by: null, attempts: 1 },
      { key: 'run-ended', locked_by: 'pool-ended', attempts: 1 },
      { key: 'run-slow', locked_by: 'pool-slow', attempts: 1 },
      { key: 'run-starting', locked_by: 'pool-starting', attempts: 1 },
    ]);
    const [queueLock] = (await admin.query(`SELECT locked_by FROM ${ctx.tables.graphile.queues} WHERE queue_name = 'agent-dead'`)).rows;
    expect(queueLock).toEqual({ locked_by: null });
  });

  it('ends a run whose job used every attempt: error worker_crashed naming the count and the last error, final status event, lease released', async () => {
    await queued('agent-1', 'run-poisoned');
    await lockedBy('run-poisoned', 'pool-x', 0, 3);
    await admin.query(`UPDATE ${ctx.tables.graphile.jobs} SET locked_by = NULL, locked_at = NULL, last_error = 'openAgent exploded'`);
    // Also exhausted, but executed by this very worker right now: its own execution ends it.
    await queued('agent-2', 'run-mine');
    await lockedBy('run-mine', 'pool-reaper', 0, 3);
    await admin.query(`UPDATE ${ctx.tables.graphile.jobs} SET locked_by = NULL, locked_at = NULL WHERE key = 'run-mine'`);
    (ctx.held as Map<string, { runId: string }>).set('42', { runId: 'run-mine' });
    await reapOnce(ctx);
    const ended = await store.runs.get('run-poisoned');
    expect(ended).toMatchObject({ status: 'error', error: { code: 'worker_crashed' } });
    expect(ended?.error?.message).toBe(
      'The run crashed 3 workers: every attempt stopped before it finished, so it was ended instead of being tried again. The last attempt failed with: openAgent exploded',
    );
    const { events } = await store.runEvents.list('run-poisoned');
    expect(events.at(-1)?.event).toMatchObject({ kind: 'message', message: { type: 'status', status: 'ERROR', error: { code: 'worker_crashed' } } });
    expect((await store.agents.get('agent-1'))?.lease).toBeNull();
    expect((await store.runs.get('run-mine'))?.status).toBe('running');
  });

  it('a poisoned run whose agent a live process holds waits for the next pass', async () => {
    await queued('agent-1', 'run-poisoned');
    await lockedBy('run-poisoned', 'pool-x', 0, 3);
    await admin.query(`UPDATE ${ctx.tables.graphile.jobs} SET locked_by = NULL, locked_at = NULL`);
    await lease('agent-1', 'run-other', 60_000);
    await reapOnce(ctx);
    expect((await store.runs.get('run-poisoned'))?.status).toBe('running');
    await store.agents.releaseLease('agent-1', 'run-other');
    await reapOnce(ctx);
    expect((await store.runs.get('run-poisoned'))?.status).toBe('error');
  });

  it('ends a running background run whose job is gone once it is older than the grace; a just-sent one is left', async () => {
    await queued('agent-1', 'run-orphan', { createdAt: Date.now() - 60_000 });
    await queued('agent-2', 'run-new');
    await admin.query(`DELETE FROM ${ctx.tables.graphile.jobs}`);
    await reapOnce(ctx);
    expect(await store.runs.get('run-orphan')).toMatchObject({ status: 'error', error: { code: 'worker_crashed', message: expect.stringContaining('its queued job is gone') } });
    expect((await store.runs.get('run-new'))?.status).toBe('running');
  });

  it('a cancel request nobody can act on: the waiting job is removed and the run ended cancelled; a held job is left to its worker', async () => {
    const cancelRequested = (runId: string) => ({ metadata: { ...queuedRunRecord(runId, '').metadata, cancelRequested: true } });
    await queued('agent-1', 'run-waiting', cancelRequested('run-waiting'));
    await queued('agent-2', 'run-held', cancelRequested('run-held'));
    await lockedBy('run-held', 'pool-live', 0);
    await lease('agent-2', 'run-held', 60_000);
    await reapOnce(ctx);
    expect(await store.runs.get('run-waiting')).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(await jobs()).toEqual([{ key: 'run-held', locked_by: 'pool-live', attempts: 1 }]);
    expect((await store.runs.get('run-held'))?.status).toBe('running');
  });

  it('touches the locks of the jobs this worker holds, so other reapers never take them for dead', async () => {
    await queued('agent-1', 'run-1');
    await lockedBy('run-1', 'pool-reaper', 10_000);
    const [{ id }] = (await admin.query(`SELECT id::text FROM ${ctx.tables.graphile.jobs}`)).rows;
    (ctx.held as Map<string, { runId: string }>).set(id, { runId: 'run-1' });
    await reapOnce(ctx);
    expect(await jobs()).toEqual([{ key: 'run-1', locked_by: 'pool-reaper', attempts: 1 }]);
  });
});
