import type { Pool } from 'pg';
import { type GraphileTables, runTask } from './queue-names.js';

/** The store's tables the reaper reads (those of @cairn/store-postgres, schema `cairn` by default). */
export interface StoreTables {
  runs: string;
  agents: string;
}

export function storeTables(schema: string): StoreTables {
  return { runs: `"${schema}"."runs"`, agents: `"${schema}"."agents"` };
}

export interface ReaperTables {
  graphile: GraphileTables;
  store: StoreTables;
}

const background = `(r.record::json -> 'metadata' -> 'background') IS NOT NULL`;
const cancelRequested = `coalesce((r.record::json -> 'metadata' -> 'cancelRequested')::text, 'false') = 'true'`;
const msAgo = (parameter: string) => `clock_timestamp() - (${parameter}::float8 * interval '1 millisecond')`;

export interface DeadLock {
  jobId: string;
  lockedBy: string;
  runId: string;
}

/**
 * Jobs whose worker is dead, all on the database clock: the run is still `running`, the worker
 * stopped touching its lock (it does every reap interval), and the run's lease is not held by a
 * live holder (expired, released, or never taken). The lock alone would misjudge a worker that is
 * only slow to reach the database; the lease alone would misjudge a worker still cloning the
 * repository, before its run takes the lease.
 */
export async function findDeadLocks(pool: Pool, t: ReaperTables, lockStaleMs: number): Promise<DeadLock[]> {
  const { rows } = await pool.query<DeadLock>(
    `SELECT j.id::text AS "jobId", j.locked_by AS "lockedBy", j.key AS "runId"
     FROM ${t.graphile.jobs} j
     JOIN ${t.graphile.tasks} task ON task.id = j.task_id AND task.identifier = $2
     JOIN ${t.store.runs} r ON r.run_id = j.key
     JOIN ${t.store.agents} a ON a.agent_id = r.agent_id
     WHERE j.locked_by IS NOT NULL
       AND r.status = 'running'
       AND j.locked_at <= ${msAgo('$1')}
       AND (a.lease_run_id IS DISTINCT FROM r.run_id OR a.lease_deadline IS NULL OR a.lease_deadline <= clock_timestamp())`,
    [lockStaleMs, runTask],
  );
  return rows;
}

export interface ExhaustedRun {
  runId: string;
  /** Attempts its job used; null when the job is gone. */
  attempts: number | null;
  lastError: string | null;
}

/**
 * Background runs still `running` that no worker will ever pick up again: their job used every
 * attempt and nobody holds it (a poisoned run), or their job is gone for longer than `orphanGraceMs`
 * after the run was created (a send whose dispatch never landed, a job deleted by hand). Runs with
 * a cancel request are left to `findCancelledRuns`.
 */
export async function findExhaustedRuns(pool: Pool, t: ReaperTables, orphanGraceMs: number): Promise<ExhaustedRun[]> {
  const { rows } = await pool.query<ExhaustedRun>(
    `SELECT r.run_id AS "runId", j.attempts::int AS attempts, j.last_error AS "lastError"
     FROM ${t.store.runs} r
     LEFT JOIN ${t.graphile.jobs} j ON j.key = r.run_id
     WHERE r.status = 'running' AND ${background} AND NOT ${cancelRequested}
       AND ((j.id IS NULL AND r.created_at < extract(epoch FROM ${msAgo('$1')}) * 1000)
         OR (j.locked_by IS NULL AND j.attempts >= j.max_attempts))`,
    [orphanGraceMs],
  );
  return rows;
}

export interface CancelledRun {
  runId: string;
  /** Its job, waiting (no worker holds it); null when there is none. */
  jobId: string | null;
}

/** Background runs asked to cancel whose job no worker holds: nobody will see the request, so the reaper ends them. */
export async function findCancelledRuns(pool: Pool, t: ReaperTables): Promise<CancelledRun[]> {
  const { rows } = await pool.query<CancelledRun>(
    `SELECT r.run_id AS "runId", j.id::text AS "jobId"
     FROM ${t.store.runs} r
     LEFT JOIN ${t.graphile.jobs} j ON j.key = r.run_id
     WHERE r.status = 'running' AND ${background} AND ${cancelRequested} AND (j.id IS NULL OR j.locked_by IS NULL)`,
  );
  return rows;
}
