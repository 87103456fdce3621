import type { Pool } from 'pg';
import type { GraphileTables } from './queue-names.js';
import { runTask } from './queue-names.js';

/**
 * SQL on graphile-worker's job tables that graphile's own API lacks. graphile 0.17.3 completes a
 * job with `DELETE … WHERE id = $1` and no `locked_by` condition, so a worker finishing a job that
 * the reaper unlocked and another worker relocked would delete the other worker's job and leave its
 * queue locked. Every release of a job here therefore names the pool that must still hold it, and
 * releases the job's queue (graphile locks a named queue with its job) in the same statement.
 * `locked_by` is the id of a graphile worker pool (one per `startWorker`).
 */

/** Wakes idle workers of every pool the way graphile's insert trigger does (`jobs:insert`). */
const nudgeSql = `SELECT pg_notify('jobs:insert', '{"count":1}')`;

/** Delete a job the pool still holds and release its queue. False when another pool holds it now. */
export async function completeHeldJob(pool: Pool, t: GraphileTables, jobId: string, poolId: string): Promise<boolean> {
  const { rows } = await pool.query(
    `WITH done AS (DELETE FROM ${t.jobs} WHERE id = $1::bigint AND locked_by = $2 RETURNING job_queue_id),
       queue AS (UPDATE ${t.queues} AS q SET locked_by = NULL, locked_at = NULL FROM done WHERE q.id = done.job_queue_id AND q.locked_by = $2)
     SELECT count(*)::int AS deleted FROM done`,
    [jobId, poolId],
  );
  return rows[0]?.deleted === 1;
}

/**
 * Put a held job back at once without spending an attempt: in one statement the held row is
 * deleted, its queue released, and a copy with one attempt fewer inserted (same key, payload,
 * queue). graphile's own completion of the old id afterwards finds nothing to delete. A copy rather
 * than an unlock, because graphile fails a job after its task throws with `locked_by = pool`, and
 * another slot of the same pool could have taken the unlocked row by then. Returns the new job id,
 * or undefined when the pool no longer held the job.
 */
export async function handBackJob(pool: Pool, t: GraphileTables, jobId: string, poolId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ id: string }>(
    `WITH old AS (DELETE FROM ${t.jobs} WHERE id = $1::bigint AND locked_by = $2 RETURNING *),
       queue AS (UPDATE ${t.queues} AS q SET locked_by = NULL, locked_at = NULL FROM old WHERE q.id = old.job_queue_id AND q.locked_by = $2)
     INSERT INTO ${t.jobs} (job_queue_id, task_id, payload, priority, run_at, attempts, max_attempts, key, flags)
       SELECT job_queue_id, task_id, payload, priority, now(), greatest(0, attempts - 1), max_attempts, key, flags FROM old
     RETURNING id::text`,
    [jobId, poolId],
  );
  return rows[0]?.id;
}

/**
 * Mark the pool's running jobs (and their queues) as still held: the reaper of any worker treats
 * a lock not touched for a while as left by a dead worker, and graphile's own 4-hour stale-lock
 * reset never fires for a run that is still going.
 */
export async function touchHeldJobs(pool: Pool, t: GraphileTables, jobIds: string[], poolId: string): Promise<void> {
  if (jobIds.length === 0) return;
  await pool.query(
    `WITH held AS (UPDATE ${t.jobs} SET locked_at = now() WHERE id = ANY($1::bigint[]) AND locked_by = $2 RETURNING job_queue_id)
     UPDATE ${t.queues} AS q SET locked_at = now() FROM held WHERE q.id = held.job_queue_id AND q.locked_by = $2`,
    [jobIds, poolId],
  );
}

/**
 * graphile's `force_unlock_workers` for one job: unlock it and its queue if `lockedBy` still holds
 * them, and wake the workers. One job rather than the whole pool, because a pool id covers every
 * run of a worker process and only this run's lease was found dead.
 */
export async function unlockJob(pool: Pool, t: GraphileTables, jobId: string, lockedBy: string): Promise<boolean> {
  const { rows } = await pool.query(
    `WITH freed AS (UPDATE ${t.jobs} SET locked_by = NULL, locked_at = NULL WHERE id = $1::bigint AND locked_by = $2 RETURNING job_queue_id),
       queue AS (UPDATE ${t.queues} AS q SET locked_by = NULL, locked_at = NULL FROM freed WHERE q.id = freed.job_queue_id AND q.locked_by = $2)
     SELECT count(*)::int AS freed FROM freed`,
    [jobId, lockedBy],
  );
  const freed = rows[0]?.freed === 1;
  if (freed) await pool.query(nudgeSql);
  return freed;
}

/**
 * Delete the run's job when no worker holds it, in one statement. graphile's `remove_job` is not
 * used: for a locked job it keeps the row but sets its attempts to the maximum, which would turn a
 * run a worker is executing (and might hand back) into one that looks poisoned.
 */
export async function removeUnlockedJob(pool: Pool, t: GraphileTables, runId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `DELETE FROM ${t.jobs} WHERE key = $1 AND locked_at IS NULL AND task_id = (SELECT id FROM ${t.tasks} WHERE identifier = $2)`,
    [runId, runTask],
  );
  return rowCount === 1;
}
