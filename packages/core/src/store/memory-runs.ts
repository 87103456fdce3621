import type { RunRecord, RunsStore } from '../spec/store/v1/store.js';
import { pageOf } from './memory-agents.js';
import { applyPatch, copyRecord } from './record-copy.js';
import { alreadyExistsError, notFoundError } from './store-errors.js';

export type MemoryRuns = Map<string, RunRecord>;

/** Synchronous (the memory store's `commitStep` does it with its other writes). */
export function updateRun(runs: MemoryRuns, runId: string, patch: Partial<RunRecord>): RunRecord {
  const record = runs.get(runId);
  if (record === undefined) throw notFoundError('run', runId);
  // The identity fields are not patchable, whatever an untyped caller passes.
  const updated = applyPatch(record, { ...patch, runId, agentId: record.agentId });
  runs.set(runId, updated);
  return copyRecord(updated);
}

export function createMemoryRunsStore(runs: MemoryRuns = new Map()): RunsStore {
  return {
    async create(record) {
      if (runs.has(record.runId)) throw alreadyExistsError('run', record.runId);
      runs.set(record.runId, copyRecord(record));
    },
    async get(runId) {
      const record = runs.get(runId);
      return record === undefined ? undefined : copyRecord(record);
    },
    async update(runId, patch) {
      return updateRun(runs, runId, patch);
    },
    async list(agentId, options = {}) {
      const matching = [...runs.values()].filter(
        (record) => record.agentId === agentId && (options.status === undefined || record.status === options.status),
      );
      return pageOf(matching, (record) => [record.createdAt, record.runId], options);
    },
  };
}
