export { resolveDatabasePath, type SqliteStoreOptions } from './open-database.js';
export { currentSchemaVersion } from './schema.js';
export { createSqliteStore, type SqliteStore } from './sqlite-store.js';
export { SqliteLocalAgentStore, type SqliteLocalAgentStoreOptions } from './sqlite-local-agent-store.js';
export { sqliteStorePlugin } from './plugin.js';
