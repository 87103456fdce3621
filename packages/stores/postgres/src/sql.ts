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

/** BEGIN … COMMIT on one pooled client; ROLLBACK on any error (a client that cannot roll back is discarded). */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A unique-key violation (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';
