import { type AgentsStore, type ApprovalsStore, type CheckpointStore, ConfigurationError, type RunEventsStore, type RunsStore } from '@cairn/core';
import { createJsonlStore, type JsonlStore, type JsonlStoreOptions } from './jsonl-store.js';
import type { JsonlWarning } from './jsonl-state.js';

export type JsonlLocalAgentStoreOptions = Omit<JsonlStoreOptions, 'dir'>;

const knownOptions = new Set(['onWarning']);

/**
 * The reference SDK's class form of the JSONL store: `new JsonlLocalAgentStore(dir)` is
 * `createJsonlStore({ dir })` (same files, same lock, same lazy load), for code written against
 * that SDK. Pass the same instance everywhere: a second store object on the same folder in one
 * process is refused at its first operation (the folder has one writer).
 */
export class JsonlLocalAgentStore implements JsonlStore {
  readonly agents: AgentsStore;
  readonly checkpoints: CheckpointStore;
  readonly runs: RunsStore;
  readonly runEvents: RunEventsStore;
  readonly approvals: ApprovalsStore;
  readonly shared = false as const;
  readonly dir: string;
  readonly warnings: readonly JsonlWarning[];
  readonly #store: JsonlStore;

  constructor(dir: string, options: JsonlLocalAgentStoreOptions = {}) {
    if (typeof dir !== 'string' || dir.trim() === '') {
      throw new ConfigurationError('new JsonlLocalAgentStore(dir) needs the folder for its .ndjson files as a non-empty string, e.g. new JsonlLocalAgentStore("./.cairn-agents").');
    }
    const unknown = Object.keys(options ?? {}).filter((key) => !knownOptions.has(key));
    if (unknown.length > 0) throw new ConfigurationError(`JsonlLocalAgentStore does not know the option ${unknown.map((key) => `"${key}"`).join(', ')}; it takes { onWarning }.`);
    this.#store = createJsonlStore({ ...options, dir });
    this.agents = this.#store.agents;
    this.checkpoints = this.#store.checkpoints;
    this.runs = this.#store.runs;
    this.runEvents = this.#store.runEvents;
    this.approvals = this.#store.approvals;
    this.dir = this.#store.dir;
    this.warnings = this.#store.warnings;
  }

  /** Waits for pending writes, flushes the files and releases the folder's lock. */
  close(): Promise<void> {
    return this.#store.close();
  }
}
