import { EventEmitter } from 'node:events';
import { ConfigurationError } from '@cairn/core';
import { newOwnerId } from '@cairn/core/node';
import type { PostgresStore } from '@cairn/store-postgres';
import { run, type Runner, type Task, type WorkerEvents } from 'graphile-worker';
import type { Pool } from 'pg';
import { consoleLogger, graphileLogger, type WorkerLogger } from './logger.js';
import { openPool } from './pg-pool.js';
import { graphileTables, runTask } from './queue-names.js';
import { startReaper } from './reaper.js';
import { type ReaperTables, storeTables } from './reaper-sql.js';
import { type HeldRun, runTaskHandler } from './run-task.js';
import { resolveWorkerOptions, type StartWorkerOptions } from './worker-options.js';

export interface Worker {
  /** This worker's id: the graphile pool id its jobs are locked by (`locked_by`). */
  readonly workerId: string;
  /** Runs this worker executes now. */
  running(): number;
  /**
   * Stop taking jobs, let running runs finish for up to `graceMs` (default `shutdownGraceMs`), then
   * hand the rest back: they stop without a final status and another worker resumes them.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

/** graphile aborts its jobs' signal this long after a graceful shutdown begins: never, since `stop()` hands runs back itself. */
const neverMs = 2_147_483_647;

async function openStore(store: StartWorkerOptions['store']): Promise<{ store: PostgresStore; close: () => Promise<void> }> {
  if (typeof store !== 'function') return { store, close: async () => {} };
  const opened = await store();
  return { store: opened, close: () => opened.close() };
}

/** The reaper joins graphile's jobs with the store's runs: both must be reachable through the worker's connection. */
async function checkSameDatabase(pool: Pool, tables: ReaperTables, store: PostgresStore): Promise<void> {
  const { rows } = await pool.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [tables.store.runs]);
  if (!rows[0]?.found) {
    throw new ConfigurationError(
      `The worker's database has no Cairn store in schema "${store.schema}": the queue (connectionString or pool) and the store must be the same PostgreSQL database.`,
    );
  }
}

/** graphile's runner with the one task, no signal handlers and no crontab; resolves with graphile's pool id (`locked_by`). */
async function startRunner(pool: Pool, schema: string, concurrency: number, task: Task, logger: WorkerLogger): Promise<{ runner: Runner; poolId: string }> {
  const events: WorkerEvents = new EventEmitter();
  let poolId = '';
  events.on('pool:create', ({ workerPool }) => (poolId = workerPool.id));
  const runner = await run(
    { pgPool: pool, schema, concurrency, noHandleSignals: true, taskList: { [runTask]: task }, logger: graphileLogger(logger), events, gracefulShutdownAbortTimeout: neverMs },
    undefined,
    // No crontab: graphile would otherwise read `crontab` in the current folder.
    [],
  );
  if (poolId === '') {
    await runner.stop().catch(() => {});
    throw new Error('graphile-worker did not report its worker pool (pool:create): this version of graphile-worker is not supported.');
  }
  return { runner, poolId };
}

/**
 * Start a worker: it takes `cairn.run` jobs (at most `concurrency` at once), executes each queued
 * run with the agent `openAgent` gives, and runs the reaper every `reapIntervalMs`. Signals are
 * not handled here: call `stop()` on SIGTERM/SIGINT. docs/workers-internals.md.
 */
export async function startWorker(options: StartWorkerOptions): Promise<Worker> {
  const resolved = resolveWorkerOptions(options);
  const logger = options.logger ?? consoleLogger;
  const { store, close: closeStore } = await openStore(options.store);
  const choice = options.pool || options.connectionString ? options : { pool: store.pool };
  // graphile needs a connection per running job and one to LISTEN; the reaper and job SQL share the rest.
  const { pool, close: closePool } = openPool(choice, 'cairn-worker', resolved.concurrency + 4);
  const tables: ReaperTables = { graphile: graphileTables(resolved.graphileSchema), store: storeTables(store.schema) };
  const held = new Map<string, HeldRun>();
  const stopping = new AbortController();
  const owner = newOwnerId();
  let started: { runner: Runner; poolId: string };
  try {
    await checkSameDatabase(pool, tables, store);
    const task = runTaskHandler({ pool, tables: tables.graphile, store, openAgent: options.openAgent, workDir: resolved.workDir, owner, held, stopping: stopping.signal, logger });
    started = await startRunner(pool, resolved.graphileSchema, resolved.concurrency, task, logger);
  } catch (error) {
    await closePool().catch(() => {});
    await closeStore().catch(() => {});
    throw error;
  }
  const { runner, poolId } = started;
  runner.promise.catch((error: unknown) => logger.error(`The worker's job pool stopped: ${error instanceof Error ? error.message : String(error)}`));
  const reaper = startReaper({ pool, store, tables, poolId, owner, held, logger, intervalMs: resolved.reapIntervalMs });
  let stopped: Promise<void> | undefined;
  return {
    workerId: poolId,
    running: () => held.size,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        const handBack = setTimeout(() => stopping.abort(), Math.max(0, stopOptions.graceMs ?? resolved.shutdownGraceMs));
        try {
          // Graceful: no new jobs; resolves once every running job's task returned.
          await runner.stop().catch(() => {});
        } finally {
          clearTimeout(handBack);
        }
        await reaper.stop();
        await closeStore();
        await closePool();
      })();
      return stopped;
    },
  };
}
