import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { foreignSchemaError, newerSchemaError, type StoreLocation } from './errors.js';
import type { Tables } from './sql.js';

/**
 * Migrations by version: migration N brings a schema at version N-1 to N. Append only: a
 * released migration is never edited. Records are JSON text beside the indexed columns (text, not
 * jsonb: jsonb refuses the \u0000 escape that event text may carry). Ids sort in byte order
 * (COLLATE "C"), like the other stores, whatever the database's collation. Times are milliseconds
 * since the epoch as float8 (exactly a JavaScript number); lease_expires_at is bigint as given.
 */
export const migrations: ReadonlyArray<(t: Tables) => string> = [
  (t) => `
    CREATE TABLE ${t.agents} (
      agent_id text COLLATE "C" PRIMARY KEY,
      cwd text NOT NULL,
      created_at float8 NOT NULL,
      updated_at float8 NOT NULL,
      archived boolean NOT NULL DEFAULT false,
      checkpoint_root text,
      lease_run_id text,
      lease_owner text,
      lease_expires_at bigint,
      lease_deadline timestamptz,
      lease_fence bigint NOT NULL DEFAULT 0,
      record text NOT NULL
    );
    CREATE INDEX agents_by_created ON ${t.agents} (created_at DESC, agent_id DESC);
    CREATE INDEX agents_by_cwd ON ${t.agents} (cwd, created_at DESC, agent_id DESC);
    CREATE TABLE ${t.blobs} (
      hash text PRIMARY KEY,
      data bytea NOT NULL
    );
    CREATE TABLE ${t.runs} (
      run_id text COLLATE "C" PRIMARY KEY,
      agent_id text NOT NULL,
      status text NOT NULL,
      created_at float8 NOT NULL,
      record text NOT NULL
    );
    CREATE INDEX runs_by_agent ON ${t.runs} (agent_id, created_at DESC, run_id DESC);
    CREATE INDEX runs_by_agent_status ON ${t.runs} (agent_id, status, created_at DESC, run_id DESC);
    CREATE TABLE ${t.runLogs} (
      run_id text PRIMARY KEY,
      last_offset bigint NOT NULL
    );
    CREATE TABLE ${t.runEvents} (
      run_id text NOT NULL,
      "offset" bigint NOT NULL,
      event text NOT NULL,
      PRIMARY KEY (run_id, "offset")
    );
    CREATE TABLE ${t.approvals} (
      run_id text COLLATE "C" NOT NULL,
      call_id text COLLATE "C" NOT NULL,
      agent_id text NOT NULL,
      status text NOT NULL,
      created_at float8 NOT NULL,
      decided_at float8,
      decision text,
      record text NOT NULL,
      PRIMARY KEY (run_id, call_id)
    );
    CREATE INDEX approvals_by_agent ON ${t.approvals} (agent_id, created_at, call_id);
    CREATE INDEX approvals_by_status ON ${t.approvals} (status, created_at, call_id);
  `,
];

export const currentSchemaVersion = migrations.length;

/** One advisory lock per schema name, the same in every process (64 bits of a SHA-256). */
export function migrationLockKey(schema: string): string {
  return createHash('sha256').update(`@cairn/store-postgres migrations ${schema}`).digest().readBigInt64BE(0).toString();
}

/** The schema's version: 0 when it has no Cairn tables; refuses a newer one and a foreign one. */
async function readVersion(client: PoolClient, schema: string, tables: Tables, at: StoreLocation): Promise<number> {
  const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [tables.migrations]);
  if (rows[0]?.found === null || rows[0]?.found === undefined) {
    const { rows: foreign } = await client.query<{ name: string }>(
      'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
      [schema],
    );
    if (foreign.length > 0) throw foreignSchemaError(at, foreign.map((row) => row.name));
    return 0;
  }
  const { rows: versions } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${tables.migrations}`);
  const version = versions[0]?.version ?? 0;
  if (version > currentSchemaVersion) throw newerSchemaError(at, version, currentSchemaVersion);
  return version;
}

async function applyMissing(client: PoolClient, schema: string, tables: Tables, at: StoreLocation): Promise<void> {
  // CREATE SCHEMA needs the CREATE right on the database even when the schema exists: skip it then.
  const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (rows.length === 0) await client.query(`CREATE SCHEMA ${tables.schema}`);
  const version = await readVersion(client, schema, tables, at);
  await client.query(`CREATE TABLE IF NOT EXISTS ${tables.migrations} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (let next = version + 1; next <= currentSchemaVersion; next++) {
    await client.query((migrations[next - 1] as (t: Tables) => string)(tables));
    await client.query(`INSERT INTO ${tables.migrations} (version) VALUES ($1)`, [next]);
  }
}

/**
 * Brings the schema to the current version. An up-to-date schema costs one read. Otherwise the
 * migration runs in one transaction under a transaction-level advisory lock on the schema name:
 * many workers starting at once queue on the lock, and each after the first re-reads the version
 * and finds nothing to do. A failed migration rolls back whole.
 */
export async function migrate(pool: Pool, schema: string, tables: Tables, at: StoreLocation): Promise<number> {
  const client = await pool.connect();
  let broken = false;
  try {
    if ((await readVersion(client, schema, tables, at)) === currentSchemaVersion) return currentSchemaVersion;
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLockKey(schema)]);
      await applyMissing(client, schema, tables, at);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
    return currentSchemaVersion;
  } finally {
    client.release(broken);
  }
}
