import type { CairnError } from '@cairn/core';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createPostgresStore, currentSchemaVersion } from '../src/index.js';
import { describePostgres, freshSchema } from '../src/testing/index.js';
import { agentRecord, sql } from './helpers.js';

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as CairnError;
  }
  throw new Error('expected a rejection');
};

describePostgres('postgres store: opening and migrations', (url) => {
  const drops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const drop of drops.splice(0)) await drop();
  });
  /** A schema name nobody created yet: the store must create it. */
  const unusedSchema = async () => {
    const fresh = await freshSchema(url);
    await fresh.drop();
    drops.push(fresh.drop);
    return fresh.schema;
  };
  const versionsOf = async (schema: string) => (await sql<{ version: number }>(url, `SELECT version FROM "${schema}".cairn_migrations ORDER BY version`)).map((row) => row.version);
  const allVersions = Array.from({ length: currentSchemaVersion }, (_, index) => index + 1);

  it('creates the schema with every table in it, and reopening changes nothing', async () => {
    const schema = await unusedSchema();
    const first = await createPostgresStore({ connectionString: url, schema });
    await first.agents.put(agentRecord('agent-1'));
    await first.close();
    const second = await createPostgresStore({ connectionString: url, schema });
    expect(await second.agents.get('agent-1')).toEqual(agentRecord('agent-1'));
    await second.close();
    expect(await versionsOf(schema)).toEqual(allVersions);
    const tables = (await sql<{ name: string }>(url, 'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [schema])).map((row) => row.name);
    expect(tables).toEqual(['agents', 'approvals', 'cairn_migrations', 'checkpoint_blobs', 'run_events', 'run_logs', 'runs']);
  });

  it('five stores opening at once on a new schema: all open, each migration applied once', async () => {
    const schema = await unusedSchema();
    const stores = await Promise.all(Array.from({ length: 5 }, () => createPostgresStore({ connectionString: url, schema, poolSize: 2 })));
    await stores[0]?.agents.put(agentRecord('agent-1'));
    for (const store of stores) expect((await store.agents.get('agent-1'))?.agentId).toBe('agent-1');
    await Promise.all(stores.map((store) => store.close()));
    expect(await versionsOf(schema)).toEqual(allVersions);
  });

  it('refuses a schema written by a newer version, and leaves it alone', async () => {
    const schema = await unusedSchema();
    await (await createPostgresStore({ connectionString: url, schema })).close();
    await sql(url, `INSERT INTO "${schema}".cairn_migrations (version) VALUES ($1)`, [currentSchemaVersion + 1]);
    const error = await errorOf(createPostgresStore({ connectionString: url, schema }));
    expect(error.code).toBe('store_version_unsupported');
    expect(error.message).toContain(`schema version ${currentSchemaVersion + 1}`);
    expect(error.message).toContain('Upgrade @cairn/store-postgres');
    expect(await versionsOf(schema)).toEqual([...allVersions, currentSchemaVersion + 1]);
  });

  it('refuses a schema whose tables Cairn did not create', async () => {
    const fresh = await freshSchema(url);
    drops.push(fresh.drop);
    await sql(url, `CREATE TABLE "${fresh.schema}".agents (id int)`);
    const error = await errorOf(createPostgresStore({ connectionString: url, schema: fresh.schema }));
    expect(error.code).toBe('store_corrupt');
    expect(error.message).toContain('Pass another schema name');
    expect((await sql(url, 'SELECT 1 FROM pg_tables WHERE schemaname = $1', [fresh.schema])).length).toBe(1);
  });

  it('rejects bad options with messages that say what to do', async () => {
    expect((await errorOf(createPostgresStore({ connectionString: url, schema: 'Bad-Name' }))).message).toContain('lowercase letters, digits and underscores');
    expect((await errorOf(createPostgresStore({ connectionString: url, schema: 'pg_cairn' }))).message).toContain('not starting with pg_');
    expect((await errorOf(createPostgresStore({ connectionString: 'localhost:5432' }))).message).toContain('postgres://user:password@host:5432/database');
    expect((await errorOf(createPostgresStore({ connectionString: 'mysql://host/db' }))).message).toContain('not postgres://');
    expect((await errorOf(createPostgresStore({}))).message).toContain('needs a connectionString');
    expect((await errorOf(createPostgresStore({ connectionString: url, poolSize: 0 }))).message).toContain('positive integer');
    const pool = new pg.Pool({ connectionString: url });
    expect((await errorOf(createPostgresStore({ connectionString: url, pool }))).message).toContain('not both');
    await pool.end();
  });

  it('an unreachable server: says which host and port, and to start Postgres or fix the URL', async () => {
    const error = await errorOf(createPostgresStore({ connectionString: 'postgres://cairn:secret-password@127.0.0.1:1/cairn' }));
    expect(error.code).toBe('store_unreachable');
    expect(error.message).toContain('127.0.0.1:1');
    expect(error.message).toContain('Start PostgreSQL');
    expect(error.message).not.toContain('secret-password');
  });

  it('a missing database: names it and says to create it', async () => {
    const missing = new URL(url);
    missing.pathname = '/cairn_no_such_database';
    const error = await errorOf(createPostgresStore({ connectionString: missing.href }));
    expect(error.message).toContain('no database "cairn_no_such_database"');
    expect(error.message).toContain('createdb');
  });

  it('uses a pool passed in, exposes it, and leaves it open on close', async () => {
    const schema = await unusedSchema();
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const store = await createPostgresStore({ pool, schema });
    expect(store.pool).toBe(pool);
    expect(() => {
      (store as { pool: unknown }).pool = undefined;
    }).toThrow(TypeError);
    await store.agents.put(agentRecord('agent-1'));
    await store.close();
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".agents`)).rows[0].n).toBe(1);
    await pool.end();
  });
});
