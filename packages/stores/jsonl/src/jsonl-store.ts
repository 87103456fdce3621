import { resolve } from 'node:path';
import type { AgentStore, ApprovalsStore } from '@cairn/core';
import { createJsonlAgentsStore } from './jsonl-agents.js';
import { createJsonlApprovalsStore } from './jsonl-approvals.js';
import { createJsonlCheckpointStore } from './jsonl-checkpoints.js';
import { createJsonlRunEventsStore } from './jsonl-run-events.js';
import { createJsonlRunsStore } from './jsonl-runs.js';
import { JsonlState, type JsonlWarning } from './jsonl-state.js';

export interface JsonlStoreOptions {
  /** The folder holding the .ndjson files; created when missing. */
  dir: string;
  /** Called for every record skipped on load (a torn or unreadable line). */
  onWarning?: (warning: JsonlWarning) => void;
}

export interface JsonlStore extends AgentStore {
  readonly shared: false;
  /**
   * Approval requests in `approvals.ndjson`. The one part other processes may use while this one
   * holds the folder: open the folder there and touch only `approvals` (no `.lock` is taken for it).
   */
  readonly approvals: ApprovalsStore;
  /** The absolute path of the folder. */
  readonly dir: string;
  /** Every record skipped while loading, in file order. */
  readonly warnings: readonly JsonlWarning[];
  /** Waits for pending writes, flushes the files and releases the folder's lock. */
  close(): Promise<void>;
}

/**
 * A store in append-only NDJSON files: easy to read, diff and ship. One process at a time (a lock
 * file refuses a second), except for approvals, which any process can answer; use
 * @cairn/store-sqlite when several processes share agents. The files are read lazily, at the
 * first operation.
 */
export function createJsonlStore(options: JsonlStoreOptions): JsonlStore {
  const dir = resolve(options.dir);
  const warnings: JsonlWarning[] = [];
  const report = (warning: JsonlWarning) => {
    warnings.push(warning);
    options.onWarning?.(warning);
  };
  const state = new JsonlState(dir, report);
  const approvals = createJsonlApprovalsStore(dir, report);
  return {
    agents: createJsonlAgentsStore(state),
    checkpoints: createJsonlCheckpointStore(state),
    runs: createJsonlRunsStore(state),
    runEvents: createJsonlRunEventsStore(state),
    approvals,
    shared: false,
    dir,
    warnings,
    async close() {
      try {
        await approvals.close();
      } finally {
        await state.close();
      }
    },
  };
}
