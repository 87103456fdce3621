/** The Postgres store and the run queue on it: what `cairn worker` and `cairn serve --store` share. */
export async function openSharedStore(connectionString: string): Promise<{ store: import('@cairn/store-postgres').PostgresStore; queue: import('@cairn/workers').RunQueue }> {
  const [{ createPostgresStore }, { createRunQueue }] = await Promise.all([import('@cairn/store-postgres'), import('@cairn/workers')]);
  const store = await createPostgresStore({ connectionString });
  try {
    const queue = await createRunQueue({ connectionString });
    return { store, queue };
  } catch (error) {
    await store.close();
    throw error;
  }
}
