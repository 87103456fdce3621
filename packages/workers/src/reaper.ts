import type { AgentStore } from '@cairn/core';
import type { Pool } from 'pg';
import { endQueuedRun } from './end-run.js';
import { removeUnlockedJob, touchHeldJobs, unlockJob } from './job-sql.js';
import type { WorkerLogger } from './logger.js';
import { findCancelledRuns, findDeadLocks, findExhaustedRuns, type ExhaustedRun, type ReaperTables } from './reaper-sql.js';

export interface ReaperContext {
  pool: Pool;
  store: AgentStore;
  tables: ReaperTables;
  /** The graphile pool id of this worker (`locked_by` of its jobs). */
  poolId: string;
  /** The lease owner the reaper ends runs as. */
  owner: string;
  /** Jobs this worker executes now, by job id, with their run. */
  held: ReadonlyMap<string, { runId: string }>;
  logger: WorkerLogger;
  intervalMs: number;
}

/** A lock untouched for three intervals belongs to a worker that missed three touches: stopped or cut off. */
export const lockStaleIntervals = 3;
/** How long a running background run may be without a job before it counts as orphaned (a dispatch takes milliseconds). */
export const orphanGraceIntervals = 10;

export function crashedError(run: ExhaustedRun): { message: string; code: string } {
  if (run.attempts === null) {
    return { code: 'worker_crashed', message: 'The run was still running but its queued job is gone, so no worker would ever finish it; it was ended.' };
  }
  const last = run.lastError ? ` The last attempt failed with: ${run.lastError}` : '';
  return {
    code: 'worker_crashed',
    message: `The run crashed ${run.attempts} worker${run.attempts === 1 ? '' : 's'}: every attempt stopped before it finished, so it was ended instead of being tried again.${last}`,
  };
}

/**
 * One pass of the reaper, which every worker runs every interval: keep this worker's own locks
 * fresh, unlock jobs of dead workers so another worker resumes them at once, end poisoned and
 * orphaned runs `error`/`worker_crashed`, and end cancelled runs that no worker holds.
 */
export async function reapOnce(ctx: ReaperContext): Promise<void> {
  await touchHeldJobs(ctx.pool, ctx.tables.graphile, [...ctx.held.keys()], ctx.poolId);
  for (const dead of await findDeadLocks(ctx.pool, ctx.tables, lockStaleIntervals * ctx.intervalMs)) {
    await each(ctx, dead.runId, async () => {
      if (!(await unlockJob(ctx.pool, ctx.tables.graphile, dead.jobId, dead.lockedBy))) return;
      ctx.logger.warn(`Worker ${dead.lockedBy} stopped while running run ${dead.runId} (its lease expired); its job is free for another worker.`);
    });
  }
  // Runs this worker executes are ended by their own execution, never by its reaper (they share the store's fences).
  const executing = new Set([...ctx.held.values()].map((held) => held.runId));
  for (const run of await findExhaustedRuns(ctx.pool, ctx.tables, orphanGraceIntervals * ctx.intervalMs)) {
    if (executing.has(run.runId)) continue;
    await each(ctx, run.runId, async () => {
      if (await endQueuedRun(ctx.store, ctx.owner, run.runId, 'error', crashedError(run))) ctx.logger.warn(`Run ${run.runId}: ${crashedError(run).message}`);
    });
  }
  for (const run of await findCancelledRuns(ctx.pool, ctx.tables)) {
    if (executing.has(run.runId)) continue;
    await each(ctx, run.runId, async () => {
      // A worker that locks the job first sees the request itself; the delete then finds nothing.
      if (run.jobId !== null && !(await removeUnlockedJob(ctx.pool, ctx.tables.graphile, run.runId))) return;
      await endQueuedRun(ctx.store, ctx.owner, run.runId, 'cancelled', { message: 'The run was cancelled before a worker started it.', code: 'cancelled' });
    });
  }
}

/** One run's step of a pass: its failure is reported and does not keep the pass from the other runs. */
async function each(ctx: ReaperContext, runId: string, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    ctx.logger.warn(`Reaper: run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs `reapOnce` every interval, one pass at a time, until stopped; a failing pass is reported and the next one tries again. */
export function startReaper(ctx: ReaperContext): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = reapOnce(ctx)
        .catch((error: unknown) => ctx.logger.warn(`Reaper pass failed (the next one tries again): ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, ctx.intervalMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
