import type { AgentStore, ApprovalsStore } from '@cairn/core';
import { openDatabase, resolveDatabasePath, type SqliteStoreOptions } from './open-database.js';
import { createSqliteAgentsStore } from './sqlite-agents.js';
import { createSqliteApprovalsStore } from './sqlite-approvals.js';
import { createSqliteCheckpointCommit, createSqliteStepCommit } from './sqlite-checkpoint-commit.js';
import { createSqliteCheckpointStore } from './sqlite-checkpoints.js';
import { createSqliteRunEventsStore } from './sqlite-run-events.js';
import { createSqliteRunsStore } from './sqlite-runs.js';

export interface SqliteStore extends AgentStore {
  readonly shared: true;
  /** Approval requests in the same file: any process opening it can answer them. */
  readonly approvals: ApprovalsStore;
  /** A checkpoint save's blobs and the agent row's pointer in one transaction. */
  commitCheckpoint: NonNullable<AgentStore['commitCheckpoint']>;
  /** A checkpoint save and the run's waiting events in one transaction. */
  commitStep: NonNullable<AgentStore['commitStep']>;
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
  const agents = createSqliteAgentsStore(database, path);
  const checkpoints = createSqliteCheckpointStore(database, path);
  const runEvents = createSqliteRunEventsStore(database, path);
  const runs = createSqliteRunsStore(database, path);
  return {
    agents,
    checkpoints,
    runs,
    runEvents,
    approvals: createSqliteApprovalsStore(database, path),
    commitCheckpoint: createSqliteCheckpointCommit(database, path, { agents, checkpoints }),
    commitStep: createSqliteStepCommit(database, path, { agents, checkpoints, runEvents, runs }),
    shared: true,
    path,
    close() {
      if (database.open) database.close();
    },
  };
}
