export { createPostgresStore, type PostgresStore } from './postgres-store.js';
export type { PostgresStoreOptions } from './options.js';
export { currentSchemaVersion } from './migrations.js';
