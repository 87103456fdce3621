import type { RunEvent } from '@cairn/core';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.js';
import { type FreshSchema, freshSchema } from '../src/testing/index.js';

export { agentRecord, runRecord, textDelta } from '@cairn/core/testing/stores';

export const textOf = (event: RunEvent) => (event.kind === 'update' && event.update.type === 'text-delta' ? event.update.text : event.kind);

/** Runs one statement on a connection of its own (for what a store does not expose). */
export async function sql<R extends pg.QueryResultRow = any>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema for each test, and `open()` for store instances on it, each with its own pool
 * (as separate processes would have); every instance is closed and the schema dropped after the test.
 */
export function storesOnFreshSchema(url: string): { open(): Promise<PostgresStore>; schema(): string } {
  let fresh: FreshSchema | undefined;
  const opened: PostgresStore[] = [];
  beforeEach(async () => {
    fresh = await freshSchema(url);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await fresh?.drop();
  });
  const schema = () => {
    if (fresh === undefined) throw new Error('The fresh schema exists only inside a test.');
    return fresh.schema;
  };
  return {
    schema,
    async open() {
      const store = await createPostgresStore({ connectionString: url, schema: schema(), poolSize: 4 });
      opened.push(store);
      return store;
    },
  };
}
