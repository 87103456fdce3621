import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshSchema {
  /** The new, empty schema's name: pass it as the store's `schema`. */
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

export interface FreshDatabase {
  /** The new, empty database's URL (the server URL with another database name). */
  url: string;
  /** Drops the database, ending its open connections. */
  drop(): Promise<void>;
}

const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;

/** Runs one statement on a short-lived connection (no pool left open between tests). */
async function runOnce(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('freshSchema/freshDatabase need the server URL: pass it, or set CAIRN_TEST_POSTGRES_URL.');
  return url;
}

/** Creates a uniquely named schema (`cairn_test_…`) in the database of `url` (default: CAIRN_TEST_POSTGRES_URL). */
export async function freshSchema(url = process.env.CAIRN_TEST_POSTGRES_URL): Promise<FreshSchema> {
  const server = requireUrl(url);
  const schema = uniqueName('cairn_test');
  await runOnce(server, `CREATE SCHEMA "${schema}"`);
  return { schema, drop: () => runOnce(server, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`) };
}

/** Creates a uniquely named database (`cairn_test_…`) on the server of `url`; the role needs CREATEDB. */
export async function freshDatabase(url = process.env.CAIRN_TEST_POSTGRES_URL): Promise<FreshDatabase> {
  const server = requireUrl(url);
  const database = uniqueName('cairn_test');
  await runOnce(server, `CREATE DATABASE "${database}"`);
  const fresh = new URL(server);
  fresh.pathname = `/${database}`;
  return { url: fresh.href, drop: () => runOnce(server, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`) };
}
