import type { AgentStore } from '@cairn/core';
import { runStoreConformance } from '@cairn/core/testing/stores';
import { afterEach } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../src/index.js';
import { describePostgres, type FreshSchema, freshSchema } from '../src/testing/index.js';

// Every test gets a fresh schema; `reopen` closes the store and opens a new one on the same schema.
describePostgres('postgres store', (url) => {
  const schemas: FreshSchema[] = [];
  const schemaOf = new WeakMap<AgentStore, string>();
  const open = async (schema: string) => {
    const store = await createPostgresStore({ connectionString: url, schema, poolSize: 4 });
    schemaOf.set(store, schema);
    return store;
  };
  afterEach(async () => {
    for (const fresh of schemas.splice(0)) await fresh.drop();
  });

  runStoreConformance(
    'postgres',
    async () => {
      const fresh = await freshSchema(url);
      schemas.push(fresh);
      return open(fresh.schema);
    },
    {
      reopen: async (store) => {
        const schema = schemaOf.get(store) as string;
        await (store as PostgresStore).close();
        return open(schema);
      },
      requireApprovals: true,
      requireCheckpointCommit: true,
    },
  );
});
