import { type FreshSchema, describePostgres, freshSchema } from '@cairn/store-postgres/testing';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { completeHeldJob, handBackJob, touchHeldJobs, unlockJob } from '../src/job-sql.js';
import { graphileTables } from '../src/queue-names.js';
import { createRunQueue, queueNameOf, type RunQueue } from '../src/run-queue.js';

describePostgres('the run queue on graphile-worker', (url) => {
  let fresh: FreshSchema;
  let admin: pg.Pool;
  const queues: RunQueue[] = [];
  beforeEach(async () => {
    fresh = await freshSchema(url);
    admin = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    await admin.end();
    await fresh.drop();
  });
  const open = async (maxAttempts?: number) => {
    const queue = await createRunQueue({ connectionString: url, graphileSchema: fresh.schema, ...(maxAttempts ? { maxAttempts } : {}) });
    queues.push(queue);
    return queue;
  };
  const t = () => graphileTables(fresh.schema);
  const jobs = async () =>
    (
      await admin.query(
        `SELECT j.id::text, j.key, j.payload, j.attempts, j.max_attempts, j.locked_by, q.queue_name, q.locked_by AS queue_locked_by
         FROM ${t().jobs} j LEFT JOIN ${t().queues} q ON q.id = j.job_queue_id ORDER BY j.id`,
      )
    ).rows;
  /** What graphile's getJobs does when a worker of `poolId` takes the job: one more attempt, job and queue locked. */
  const lock = async (jobId: string, poolId: string) => {
    await admin.query(`UPDATE ${t().jobs} SET locked_by = $2, locked_at = now(), attempts = attempts + 1 WHERE id = $1`, [jobId, poolId]);
    await admin.query(`UPDATE ${t().queues} SET locked_by = $2, locked_at = now() WHERE id = (SELECT job_queue_id FROM ${t().jobs} WHERE id = $1)`, [jobId, poolId]);
  };

  it('five queues opening a fresh schema at once all migrate it; a run is one job: payload, queue = agent, key = run, maxAttempts', async () => {
    const opened = await Promise.all([1, 2, 3, 4, 5].map(() => open(4)));
    await opened[2]!.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    expect(await jobs()).toMatchObject([{ key: 'run-1', payload: { runId: 'run-1', agentId: 'agent-1' }, attempts: 0, max_attempts: 4, locked_by: null, queue_name: 'agent-1' }]);
    expect(opened[0]!.graphileSchema).toBe(fresh.schema);
  });

  it('dispatching a run twice keeps one job, even while a worker holds it (graphile would otherwise mark the held one failed and add another)', async () => {
    const queue = await open();
    await queue.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    await queue.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    expect(await jobs()).toHaveLength(1);
    await lock((await jobs())[0]!.id, 'pool-a');
    await queue.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    expect(await jobs()).toMatchObject([{ key: 'run-1', attempts: 1, max_attempts: 3, locked_by: 'pool-a' }]);
  });

  it('removeQueued removes a waiting job and leaves a held one untouched', async () => {
    const queue = await open();
    await queue.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    await queue.dispatch({ runId: 'run-2', agentId: 'agent-2' });
    await lock((await jobs())[1]!.id, 'pool-a');
    expect(await queue.removeQueued('run-1')).toBe(true);
    expect(await queue.removeQueued('run-1')).toBe(false);
    expect(await queue.removeQueued('run-2')).toBe(false);
    expect(await jobs()).toMatchObject([{ key: 'run-2', attempts: 1, max_attempts: 3, locked_by: 'pool-a' }]);
  });

  it('an agent id longer than a graphile queue name is queued under its hash; invalid options name the fix', async () => {
    const long = `agent-${'x'.repeat(200)}`;
    expect(queueNameOf(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(queueNameOf(long)).toBe(queueNameOf(long));
    const queue = await open();
    await queue.dispatch({ runId: 'run-long', agentId: long });
    expect((await jobs())[0]).toMatchObject({ key: 'run-long', queue_name: queueNameOf(long), payload: { agentId: long } });
    await expect(createRunQueue({ connectionString: url, maxAttempts: 0 })).rejects.toThrow('Invalid maxAttempts 0');
    await expect(createRunQueue({ connectionString: url, graphileSchema: 'Bad-Name' })).rejects.toThrow('Invalid graphileSchema "Bad-Name"');
    await expect(createRunQueue({})).rejects.toThrow('connectionString');
  });

  it('job SQL only ever releases a job the named pool still holds', async () => {
    const queue = await open();
    await queue.dispatch({ runId: 'run-1', agentId: 'agent-1' });
    const [job] = await jobs();
    await lock(job!.id, 'pool-b');
    // Pool A's run ended after pool B relocked the job: its completion must not touch B's job or queue lock.
    expect(await completeHeldJob(admin, t(), job!.id, 'pool-a')).toBe(false);
    expect(await handBackJob(admin, t(), job!.id, 'pool-a')).toBeUndefined();
    expect(await unlockJob(admin, t(), job!.id, 'pool-a')).toBe(false);
    expect(await jobs()).toMatchObject([{ id: job!.id, locked_by: 'pool-b', queue_locked_by: 'pool-b', attempts: 1 }]);

    // Handing back: a fresh copy, waiting at once, with the attempt given back; the queue is free.
    const copy = await handBackJob(admin, t(), job!.id, 'pool-b');
    expect(copy).toBeDefined();
    expect(copy).not.toBe(job!.id);
    expect(await jobs()).toMatchObject([{ id: copy, key: 'run-1', payload: { runId: 'run-1', agentId: 'agent-1' }, attempts: 0, max_attempts: 3, locked_by: null, queue_locked_by: null }]);
    const [{ due }] = (await admin.query(`SELECT run_at <= now() AS due FROM ${t().jobs}`)).rows;
    expect(due).toBe(true);
    // graphile's own completion of the old id, after the task returned, finds nothing.
    expect((await admin.query(`DELETE FROM ${t().jobs} WHERE id = $1`, [job!.id])).rowCount).toBe(0);

    await lock(copy!, 'pool-c');
    await admin.query(`UPDATE ${t().jobs} SET locked_at = now() - interval '1 hour'`);
    await touchHeldJobs(admin, t(), [copy!], 'pool-c');
    const [{ fresh: touched }] = (await admin.query(`SELECT locked_at > now() - interval '1 minute' AS fresh FROM ${t().jobs}`)).rows;
    expect(touched).toBe(true);
    expect(await unlockJob(admin, t(), copy!, 'pool-c')).toBe(true);
    expect(await jobs()).toMatchObject([{ id: copy, locked_by: null, queue_locked_by: null, attempts: 1 }]);
    await lock(copy!, 'pool-d');
    expect(await completeHeldJob(admin, t(), copy!, 'pool-d')).toBe(true);
    expect(await jobs()).toEqual([]);
    const [{ locked }] = (await admin.query(`SELECT count(*)::int AS locked FROM ${t().queues} WHERE locked_by IS NOT NULL`)).rows;
    expect(locked).toBe(0);
  });
});
