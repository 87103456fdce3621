import { createHash } from 'node:crypto';
import { ConfigurationError, type RunDispatcher } from '@cairn/core';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import type { Pool } from 'pg';
import { removeUnlockedJob } from './job-sql.js';
import { consoleLogger, graphileLogger, type WorkerLogger } from './logger.js';
import { openPool, type PoolChoice } from './pg-pool.js';
import { checkGraphileSchema, type GraphileTables, graphileTables, type RunJobPayload, runTask } from './queue-names.js';

export interface RunQueueOptions extends PoolChoice {
  /** How many times a worker may start a run before it counts as poisoned (default 3). */
  maxAttempts?: number;
  /** The schema of graphile-worker's tables (default `graphile_worker`). Workers must use the same one. */
  graphileSchema?: string;
  logger?: WorkerLogger;
}

/** Queues background runs for workers (`startWorker`): pass it as an agent's `background` option. */
export interface RunQueue extends RunDispatcher {
  /** The graphile schema the queue uses. */
  readonly graphileSchema: string;
  /** Remove a run's job if no worker holds it yet; true when it was removed. */
  removeQueued(runId: string): Promise<boolean>;
  close(): Promise<void>;
}

export const defaultMaxAttempts = 3;

/** graphile limits queue names to 128 characters; a longer agent id is queued under its hash, as serial as the id. */
export function queueNameOf(agentId: string): string {
  return agentId.length <= 128 ? agentId : `sha256:${createHash('sha256').update(agentId).digest('hex')}`;
}

function checkMaxAttempts(value: unknown): number {
  if (value === undefined) return defaultMaxAttempts;
  // graphile stores it as a smallint.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 32_767) {
    throw new ConfigurationError(`Invalid maxAttempts ${String(value)}: use a whole number from 1 (default ${defaultMaxAttempts}).`);
  }
  return value;
}

/**
 * One job per run: task `cairn.run`, payload `{ runId, agentId }`, queue = the agent (graphile runs
 * a named queue's jobs one at a time across all workers), key = the run. `unsafe_dedupe` makes a
 * second dispatch of the same run a no-op: graphile's default `replace` would instead reset a
 * waiting job's attempts, and give up on a job a worker is executing (setting its attempts to the
 * maximum) to add a fresh one.
 */
export async function addRunJob(utils: WorkerUtils, run: RunJobPayload, maxAttempts: number): Promise<void> {
  await utils.addJob(runTask, { runId: run.runId, agentId: run.agentId }, { queueName: queueNameOf(run.agentId), jobKey: run.runId, jobKeyMode: 'unsafe_dedupe', maxAttempts });
}

/** Opens the queue, creating or migrating graphile's schema first (graphile's own migrations, safe to run from many processes at once). */
export async function createRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  const maxAttempts = checkMaxAttempts(options.maxAttempts);
  const schema = checkGraphileSchema(options.graphileSchema);
  const logger = options.logger ?? consoleLogger;
  const { pool, close: closePool } = openPool(options, 'cairn-run-queue');
  let utils: WorkerUtils;
  try {
    utils = await makeWorkerUtils({ pgPool: pool, schema, logger: graphileLogger(logger) });
  } catch (error) {
    await closePool();
    throw error;
  }
  return queueOver(pool, utils, graphileTables(schema), schema, maxAttempts, closePool);
}

function queueOver(pool: Pool, utils: WorkerUtils, tables: GraphileTables, schema: string, maxAttempts: number, closePool: () => Promise<void>): RunQueue {
  let closed: Promise<void> | undefined;
  return {
    graphileSchema: schema,
    dispatch: (run) => addRunJob(utils, run, maxAttempts),
    removeQueued: (runId) => removeUnlockedJob(pool, tables, runId),
    close() {
      closed ??= (async () => {
        await utils.release();
        await closePool();
      })();
      return closed;
    },
  };
}
