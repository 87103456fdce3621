import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describePostgres, freshDatabase, freshSchema, postgresTestUrl } from '../src/testing/index.js';
import { postgresTestTarget, skipMessage } from '../src/testing/test-env.js';
import { sql } from './helpers.js';

describe('the Postgres test switch', () => {
  it('takes the URL from CAIRN_TEST_POSTGRES_URL', () => {
    expect(postgresTestUrl({ CAIRN_TEST_POSTGRES_URL: ' postgres://u:p@h:5432/d ' })).toBe('postgres://u:p@h:5432/d');
    expect(postgresTestUrl({ CAIRN_TEST_POSTGRES_URL: '' })).toBeUndefined();
    expect(postgresTestTarget({ CAIRN_TEST_POSTGRES_URL: 'postgres://h/d', CI: 'true' })).toBe('postgres://h/d');
  });

  it('skips without the URL off CI, and throws without it on CI (never a false pass)', () => {
    expect(postgresTestTarget({})).toBeUndefined();
    expect(postgresTestTarget({ CI: 'false' })).toBeUndefined();
    expect(() => postgresTestTarget({ CI: 'true' })).toThrow(/CAIRN_TEST_POSTGRES_URL is not set, and CI is/);
    expect(() => postgresTestTarget({ CI: '1', CAIRN_TEST_POSTGRES_URL: '  ' })).toThrow(/scripts\/start-postgres\.sh/);
    expect(skipMessage).toBe("Postgres tests skipped: set CAIRN_TEST_POSTGRES_URL=postgres://… (scripts/start-postgres.sh starts Debian's PostgreSQL and prints it)");
  });
});

describePostgres('fresh schemas and databases', (url) => {
  it('freshSchema creates a unique empty schema and drop removes it with its tables', async () => {
    const [one, two] = [await freshSchema(url), await freshSchema(url)];
    expect(one.schema).not.toBe(two.schema);
    await sql(url, `CREATE TABLE "${one.schema}".t (id int)`);
    const exists = async (schema: string) => (await sql(url, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).length === 1;
    expect(await exists(one.schema)).toBe(true);
    await Promise.all([one.drop(), two.drop()]);
    expect(await exists(one.schema)).toBe(false);
  });

  it('freshDatabase creates a database reachable at the returned URL; drop removes it even with connections open', async () => {
    const fresh = await freshDatabase(url);
    const client = new pg.Client({ connectionString: fresh.url });
    client.on('error', () => {});
    await client.connect();
    expect((await client.query('SELECT current_database() AS name')).rows[0].name).toBe(new URL(fresh.url).pathname.slice(1));
    await fresh.drop();
    await client.end().catch(() => {});
    expect(await sql(url, 'SELECT 1 FROM pg_database WHERE datname = $1', [new URL(fresh.url).pathname.slice(1)])).toEqual([]);
  });
});
