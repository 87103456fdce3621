import { ConfigurationError } from '@cairn/core';
import pg, { type Pool, type PoolConfig } from 'pg';
import type { StoreLocation } from './errors.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:5432/database`. Give this or `pool`. */
  connectionString?: string;
  /** A pg Pool to use instead of creating one (shared with a job queue, say). Give this or `connectionString`. */
  pool?: Pool;
  /** The schema holding every table (created when missing). Default `cairn`. */
  schema?: string;
  /** Connections of the pool the store creates from `connectionString`. Default 10. */
  poolSize?: number;
  /** Whether `close()` ends the pool. Default: true for a pool the store created, false for one passed in. */
  ownsPool?: boolean;
}

export interface ResolvedOptions {
  pool: Pool;
  ownsPool: boolean;
  schema: string;
  location: StoreLocation;
  /** The settings of a connection like the pool's, for the store's LISTEN connection. */
  clientConfig: PoolConfig;
}

const defaultPoolSize = 10;
const connectTimeoutMs = 10_000;
/** The channel `<schema>_run_events` must fit an identifier (63 bytes). */
const maxSchemaLength = 63 - '_run_events'.length;
const schemaPattern = new RegExp(`^[a-z_][a-z0-9_]{0,${maxSchemaLength - 1}}$`);

function checkSchema(schema: unknown): string {
  if (typeof schema !== 'string' || !schemaPattern.test(schema) || schema.startsWith('pg_')) {
    throw new ConfigurationError(
      `Invalid Postgres schema name ${JSON.stringify(schema)}: use lowercase letters, digits and underscores, starting with a letter or an underscore, ` +
        `at most ${maxSchemaLength} characters, not starting with pg_ (for example "cairn").`,
    );
  }
  return schema;
}

function parseUrl(connectionString: unknown): URL {
  const hint = 'Pass a URL like postgres://user:password@host:5432/database.';
  if (typeof connectionString !== 'string' || connectionString === '') throw new ConfigurationError(`The Postgres store needs a connectionString. ${hint}`);
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw new ConfigurationError(`The Postgres connectionString is not a URL. ${hint}`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigurationError(`The Postgres connectionString starts with ${url.protocol}//, not postgres://. ${hint}`);
  }
  if (url.hostname === '') throw new ConfigurationError(`The Postgres connectionString names no host. ${hint}`);
  return url;
}

function checkPoolSize(poolSize: unknown): number {
  if (poolSize === undefined) return defaultPoolSize;
  if (typeof poolSize !== 'number' || !Number.isInteger(poolSize) || poolSize < 1) {
    throw new ConfigurationError(`Invalid poolSize ${String(poolSize)}: use a positive integer (connections of the store's pool; default ${defaultPoolSize}).`);
  }
  return poolSize;
}

/** Host, port and database of a pool passed in, for messages (as pg resolves them: defaults, then PG* variables). */
function locationOfPool(pool: Pool, schema: string): StoreLocation {
  const options = pool.options as PoolConfig;
  let fromUrl: URL | undefined;
  try {
    fromUrl = options.connectionString ? new URL(options.connectionString) : undefined;
  } catch {
    fromUrl = undefined;
  }
  return {
    host: fromUrl?.hostname || options.host || process.env.PGHOST || 'localhost',
    port: Number(fromUrl?.port || options.port || process.env.PGPORT || 5432),
    database: decodeURIComponent(fromUrl?.pathname.slice(1) ?? '') || options.database || process.env.PGDATABASE || options.user || process.env.USER || '',
    schema,
  };
}

/** Checks the options and creates the pool (not yet connected). Throws ConfigurationError naming the fix. */
export function resolveOptions(options: PostgresStoreOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('createPostgresStore takes an options object: { connectionString } or { pool }.');
  const schema = checkSchema(options.schema ?? 'cairn');
  if (options.pool !== undefined && options.connectionString !== undefined) {
    throw new ConfigurationError('Pass either connectionString or pool to createPostgresStore, not both.');
  }
  if (options.pool !== undefined) {
    if (options.poolSize !== undefined) throw new ConfigurationError('poolSize sizes the pool the store creates; with your own pool, set its max instead.');
    const clientConfig = { ...(options.pool.options as PoolConfig) };
    return { pool: options.pool, ownsPool: options.ownsPool ?? false, schema, location: locationOfPool(options.pool, schema), clientConfig };
  }
  const url = parseUrl(options.connectionString);
  const clientConfig: PoolConfig = { connectionString: url.href, connectionTimeoutMillis: connectTimeoutMs, application_name: 'cairn-store' };
  const pool = new pg.Pool({ ...clientConfig, max: checkPoolSize(options.poolSize) });
  // An idle pooled connection that the server closes emits 'error' on the pool; unhandled, that
  // would end the process. The pool drops the connection and the next query opens a new one.
  pool.on('error', () => {});
  const location = { host: url.hostname, port: Number(url.port || 5432), database: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username), schema };
  return { pool, ownsPool: options.ownsPool ?? true, schema, location, clientConfig };
}
