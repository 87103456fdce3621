import type { AgentStore, ApprovalsStore, RunEventsStore } from '@cairn/core';
import type { Pool } from 'pg';
import { AppendWaiters } from './append-waiters.js';
import { FenceBook } from './fence.js';
import { migrate } from './migrations.js';
import { openError } from './open-errors.js';
import { type PostgresStoreOptions, resolveOptions } from './options.js';
import { createPgAgentsStore } from './pg-agents.js';
import { createPgApprovalsStore } from './pg-approvals.js';
import { createPgCheckpointCommit } from './pg-checkpoint-commit.js';
import { createPgCheckpointStore } from './pg-checkpoints.js';
import { NotificationListener } from './pg-listener.js';
import { createPgRunEventsStore } from './pg-run-events.js';
import { createPgRunsStore } from './pg-runs.js';
import { type PgContext, tablesOf } from './sql.js';

export interface PostgresStore extends AgentStore {
  readonly shared: true;
  readonly approvals: ApprovalsStore;
  commitCheckpoint: NonNullable<AgentStore['commitCheckpoint']>;
  runEvents: Required<RunEventsStore>;
  /** The pg Pool the store queries through (to share it, say with a job queue). Do not end it while the store is open. */
  readonly pool: Pool;
  /** The schema holding the store's tables. */
  readonly schema: string;
  /** The fence of the agent's lease this instance holds; undefined when it holds none or lost it. */
  leaseFence(agentId: string): number | undefined;
  /** Stops the LISTEN connection, resolves every pending waitForAppend, and ends the pool when the store owns it. */
  close(): Promise<void>;
}

/** A NOTIFY payload is `<runId>:<lastOffset>`, or `*` for every run. */
function onNotification(waiters: AppendWaiters, payload: string): void {
  const colon = payload.lastIndexOf(':');
  const lastOffset = Number(payload.slice(colon + 1));
  if (payload === '*' || colon === -1 || !Number.isFinite(lastOffset)) waiters.wakeAll();
  else waiters.wake(payload.slice(0, colon), lastOffset);
}

/**
 * A Cairn store on PostgreSQL that many processes and machines share. Opening applies the
 * schema's migrations (safe when many start at once), so it is async. See docs/store-postgres.md.
 */
export async function createPostgresStore(options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const resolved = resolveOptions(options);
  const { pool, schema, location } = resolved;
  const tables = tablesOf(schema);
  try {
    await migrate(pool, schema, tables, location);
  } catch (error) {
    if (resolved.ownsPool) await pool.end().catch(() => {});
    throw openError(error, location);
  }
  const ctx: PgContext = { pool, tables, channel: `${schema}_run_events`, fences: new FenceBook() };
  const waiters = new AppendWaiters();
  const listener = new NotificationListener({
    clientConfig: resolved.clientConfig,
    channel: ctx.channel,
    onNotification: (payload) => onNotification(waiters, payload),
    // Notifications sent while the connection was down are lost: every reader lists again.
    onReconnect: () => waiters.wakeAll(),
  });
  const agents = createPgAgentsStore(ctx);
  const checkpoints = createPgCheckpointStore(ctx);
  const runEvents = createPgRunEventsStore(ctx, waiters, listener);
  let closing: Promise<void> | undefined;

  return {
    agents,
    checkpoints,
    runs: createPgRunsStore(ctx),
    runEvents: {
      ...runEvents,
      waitForAppend: (runId, afterOffset, wait) => (closing ? Promise.resolve() : runEvents.waitForAppend(runId, afterOffset, wait)),
    },
    approvals: createPgApprovalsStore(ctx),
    commitCheckpoint: createPgCheckpointCommit(ctx, { agents, checkpoints }),
    shared: true,
    get pool() {
      return pool;
    },
    get schema() {
      return schema;
    },
    leaseFence: (agentId) => ctx.fences.fenceOf(agentId),
    close() {
      closing ??= (async () => {
        await listener.close();
        waiters.wakeAll();
        if (resolved.ownsPool) await pool.end();
      })();
      return closing;
    },
  };
}
