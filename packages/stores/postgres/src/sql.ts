import { CairnError } from '@cairn/core';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import type { FenceBook } from './fence.js';

/** A pool (one autocommit statement) or a client inside a transaction. */
export interface Queryable {
  query<R extends QueryResultRow = any>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** The quoted, schema-qualified name of every table. */
export interface Tables {
  schema: string;
  migrations: string;
  agents: string;
  blobs: string;
  runs: string;
  runLogs: string;
  runEvents: string;
  approvals: string;
}

export function tablesOf(schema: string): Tables {
  // The schema name is checked to be a plain lowercase identifier before it gets here.
  const table = (name: string) => `"${schema}"."${name}"`;
  return {
    schema: `"${schema}"`,
    migrations: table('cairn_migrations'),
    agents: table('agents'),
    blobs: table('checkpoint_blobs'),
    runs: table('runs'),
    runLogs: table('run_logs'),
    runEvents: table('run_events'),
    approvals: table('approvals'),
  };
}

/** What every part of one store instance shares. */
export interface PgContext {
  readonly pool: Pool;
  readonly tables: Tables;
  /** The NOTIFY channel of this schema's run-event appends. */
  readonly channel: string;
  readonly fences: FenceBook;
}

/**
 * A lease deadline on the database clock: `clock_timestamp()` (the time of the statement, not of
 * the transaction start) plus the lease's remaining milliseconds as the caller counts them.
 */
export const deadlineSql = (parameter: string) => `clock_timestamp() + (${parameter}::float8 * interval '1 millisecond')`;

/** A deadline delta far past any lease, so a huge expiresAt cannot overflow a timestamp. */
const maxDeltaMs = 100 * 365 * 24 * 3600 * 1000;

/** The lease's remaining time in ms as the caller sees it (`expiresAt - now`), clamped to ±100 years. */
export const remainingMs = (expiresAt: number, now: number) => Math.max(-maxDeltaMs, Math.min(maxDeltaMs, expiresAt - now));

/**
 * How long a store transaction may sit idle between its statements before Postgres ends its session.
 * Our transactions send their statements back to back, so an idle one belongs to a process that was
 * paused (SIGSTOP, a frozen VM) or stalled: ending it frees the rows it locked, above all the agent
 * row a fenced write holds FOR SHARE, which a takeover of the lease must update. Without it a frozen
 * holder blocks the takeover of its lease until it wakes.
 */
export const stalledTransactionTimeoutMs = 10_000;

/** SQLSTATE 25P03: Postgres ended the session for being idle in a transaction too long. */
const isStalledTransaction = (error: unknown) => (error as { code?: unknown } | null)?.code === '25P03';

function stalledTransactionError(cause: unknown): CairnError {
  return new CairnError(
    `The store's transaction sat idle for more than ${stalledTransactionTimeoutMs / 1000} s (this process was paused or overloaded), ` +
      'so Postgres rolled it back and nothing of it was written. Another holder may have taken over this agent meanwhile.',
    { code: 'store_transaction_stalled', cause },
  );
}

/** BEGIN … COMMIT on one pooled client; ROLLBACK on any error (a client that cannot roll back is discarded). */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // The pool listens for errors of idle clients only: a checked-out client whose connection the
  // server ends (a stalled transaction, a restart) would otherwise crash the process. The first
  // error names the cause; the "Connection terminated unexpectedly" after it does not.
  let connectionError: unknown;
  const onError = (error: unknown) => {
    connectionError ??= error;
  };
  client.on('error', onError);
  let broken = false;
  try {
    await client.query(`BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${stalledTransactionTimeoutMs}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw isStalledTransaction(error) || isStalledTransaction(connectionError) ? stalledTransactionError(error) : error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken || connectionError !== undefined);
  }
}

/** A unique-key violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';
