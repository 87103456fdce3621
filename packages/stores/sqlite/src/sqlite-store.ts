import type { AgentStore, ApprovalsStore } from '@cairn/core';
import { openDatabase, resolveDatabasePath, type SqliteStoreOptions } from './open-database.js';
import { createSqliteAgentsStore } from './sqlite-agents.js';
import { createSqliteApprovalsStore } from './sqlite-approvals.js';
import { createSqliteCheckpointStore } from './sqlite-checkpoints.js';
import { createSqliteRunEventsStore } from './sqlite-run-events.js';
import { createSqliteRunsStore } from './sqlite-runs.js';

export interface SqliteStore extends AgentStore {
  readonly shared: true;
  /** Approval requests in the same file: any process opening it can answer them. */
  readonly approvals: ApprovalsStore;
  /** The absolute path of the database file. */
  readonly path: string;
  close(): void;
}

/**
 * The default Cairn store: one SQLite file (WAL) that several processes can share. Opening
 * creates the folder and the schema, and refuses a corrupt or newer file without touching it.
 */
export function createSqliteStore(options: SqliteStoreOptions = {}): SqliteStore {
  const path = resolveDatabasePath(options);
  const database = openDatabase(path, options);
  return {
    agents: createSqliteAgentsStore(database, path),
    checkpoints: createSqliteCheckpointStore(database, path),
    runs: createSqliteRunsStore(database, path),
    runEvents: createSqliteRunEventsStore(database, path),
    approvals: createSqliteApprovalsStore(database, path),
    shared: true,
    path,
    close() {
      if (database.open) database.close();
    },
  };
}
