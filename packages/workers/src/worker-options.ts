import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@cairn/core';
import type { PostgresStore } from '@cairn/store-postgres';
import type { WorkerLogger } from './logger.js';
import type { PoolChoice } from './pg-pool.js';
import { checkGraphileSchema } from './queue-names.js';
import type { OpenAgent } from './run-task.js';

/** `connectionString` or `pool`: the queue's database, the store's; with neither, the worker uses the store's pool. */
export interface StartWorkerOptions extends PoolChoice {
  /**
   * The store the agents live in (the same database as the queue): a PostgresStore, or a function
   * opening one (the worker then closes it on stop).
   */
  store: PostgresStore | (() => Promise<PostgresStore>);
  /**
   * How the worker opens an agent to execute its queued run, with the caller's registry, options
   * and environment, e.g. `(agentId, { cwd }) => Agent.resume(agentId, { local: { store, cwd } })`.
   * `cwd` is set when the run works in a git clone.
   */
  openAgent: OpenAgent;
  /** Runs executed at once by this worker (default 1). */
  concurrency?: number;
  /** Where git workspaces are cloned, one folder per agent (default `<os temp dir>/cairn-workers`). */
  workDir?: string;
  /** How often the reaper looks for dead workers, poisoned and cancelled runs (default 2000 ms). */
  reapIntervalMs?: number;
  /** How long `stop()` lets running runs finish before handing them back (default 30000 ms). */
  shutdownGraceMs?: number;
  /** The schema of graphile-worker's tables (default `graphile_worker`), as the queue's. */
  graphileSchema?: string;
  logger?: WorkerLogger;
}

export interface ResolvedWorkerOptions {
  concurrency: number;
  workDir: string;
  reapIntervalMs: number;
  shutdownGraceMs: number;
  graphileSchema: string;
}

function wholeNumber(name: string, value: unknown, fallback: number, min: number, max: number, unit = ''): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError(`Invalid ${name} ${String(value)}: use a whole number from ${min} to ${max}${unit} (default ${fallback}${unit}).`);
  }
  return value;
}

/** Checks every option up front, so a worker that starts is one that can run. Throws ConfigurationError naming the fix. */
export function resolveWorkerOptions(options: StartWorkerOptions): ResolvedWorkerOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('startWorker takes an options object: { store, openAgent, connectionString? }.');
  if (typeof options.openAgent !== 'function') throw new ConfigurationError('startWorker needs openAgent(agentId, { cwd }): how the worker opens an agent to run (for example with Agent.resume).');
  if (options.store === undefined || options.store === null) throw new ConfigurationError('startWorker needs the store the agents live in (a PostgresStore, or a function opening one).');
  if (options.pool !== undefined && options.connectionString !== undefined) throw new ConfigurationError('Pass either connectionString or pool to startWorker, not both (with neither, the worker uses the pool of the store).');
  if (options.workDir !== undefined && (typeof options.workDir !== 'string' || options.workDir === '')) throw new ConfigurationError('Invalid workDir: use a folder path.');
  return {
    concurrency: wholeNumber('concurrency', options.concurrency, 1, 1, 1000),
    workDir: options.workDir ?? join(tmpdir(), 'cairn-workers'),
    reapIntervalMs: wholeNumber('reapIntervalMs', options.reapIntervalMs, 2000, 10, 3_600_000, ' ms'),
    shutdownGraceMs: wholeNumber('shutdownGraceMs', options.shutdownGraceMs, 30_000, 0, 86_400_000, ' ms'),
    graphileSchema: checkGraphileSchema(options.graphileSchema),
  };
}
