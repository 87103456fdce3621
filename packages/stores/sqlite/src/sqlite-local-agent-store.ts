import { type AgentsStore, type ApprovalsStore, type CheckpointStore, ConfigurationError, type RunEventsStore, type RunsStore } from '@cairn/core';
import type { SqliteStoreOptions } from './open-database.js';
import { createSqliteStore, type SqliteStore } from './sqlite-store.js';

export type SqliteLocalAgentStoreOptions = Omit<SqliteStoreOptions, 'path'>;

const knownOptions = new Set(['home', 'busyTimeoutMs']);

/**
 * The class form of the SQLite store, alongside `JsonlLocalAgentStore`: `new
 * SqliteLocalAgentStore(path)` is `createSqliteStore({ path })`; without a path, the default file
 * (`$CAIRN_HOME/agents.db`, else `~/.cairn/agents.db`). Opening happens in the constructor.
 */
export class SqliteLocalAgentStore implements SqliteStore {
  readonly agents: AgentsStore;
  readonly checkpoints: CheckpointStore;
  readonly runs: RunsStore;
  readonly runEvents: RunEventsStore;
  readonly approvals: ApprovalsStore;
  readonly commitCheckpoint: SqliteStore['commitCheckpoint'];
  readonly commitStep: SqliteStore['commitStep'];
  readonly shared = true as const;
  readonly path: string;
  readonly #store: SqliteStore;

  constructor(path?: string, options: SqliteLocalAgentStoreOptions = {}) {
    if (path !== undefined && (typeof path !== 'string' || path.trim() === '')) {
      throw new ConfigurationError('new SqliteLocalAgentStore(path) takes the database file as a non-empty string, or no argument for the default file.');
    }
    const unknown = Object.keys(options ?? {}).filter((key) => !knownOptions.has(key));
    if (unknown.length > 0) throw new ConfigurationError(`SqliteLocalAgentStore does not know the option ${unknown.map((key) => `"${key}"`).join(', ')}; it takes { home, busyTimeoutMs }.`);
    this.#store = createSqliteStore({ ...options, ...(path !== undefined ? { path } : {}) });
    this.agents = this.#store.agents;
    this.checkpoints = this.#store.checkpoints;
    this.runs = this.#store.runs;
    this.runEvents = this.#store.runEvents;
    this.approvals = this.#store.approvals;
    this.commitCheckpoint = this.#store.commitCheckpoint;
    this.commitStep = this.#store.commitStep;
    this.path = this.#store.path;
  }

  close(): void {
    this.#store.close();
  }
}
