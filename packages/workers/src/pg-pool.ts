import { ConfigurationError } from '@cairn/core';
import pg, { type Pool } from 'pg';

/** Where a queue or a worker connects: a connection string (it opens and closes its own pool) or a pool of the caller's. */
export interface PoolChoice {
  /** `postgres://user:password@host:5432/database`. Give this or `pool`. */
  connectionString?: string;
  /** A pg Pool to use (it stays open after `close()`). Give this or `connectionString`. */
  pool?: Pool;
}

/**
 * A connection the server closes emits 'error' (on the pool when idle, on the client when checked
 * out); unhandled, that ends the process. pg drops the connection, and a query in flight fails
 * with the error anyway, so the handlers only need to exist. graphile-worker installs the same
 * when they are missing, with a console warning.
 */
function handleConnectionErrors(pool: Pool): void {
  if (pool.listeners('error').length === 0) pool.on('error', () => {});
  if (pool.listeners('connect').length === 0) pool.on('connect', (client) => client.on('error', () => {}));
}

export function openPool(choice: PoolChoice, applicationName: string, max?: number): { pool: Pool; close: () => Promise<void> } {
  if (choice.pool !== undefined && choice.connectionString !== undefined) throw new ConfigurationError('Pass either connectionString or pool, not both.');
  if (choice.pool !== undefined) {
    handleConnectionErrors(choice.pool);
    return { pool: choice.pool, close: async () => {} };
  }
  if (typeof choice.connectionString !== 'string' || choice.connectionString === '') {
    throw new ConfigurationError('A Postgres connectionString (postgres://user:password@host:5432/database) or a pool is required.');
  }
  const pool = new pg.Pool({ connectionString: choice.connectionString, application_name: applicationName, ...(max ? { max } : {}) });
  handleConnectionErrors(pool);
  return { pool, close: () => pool.end() };
}
