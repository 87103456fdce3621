import type { RunsStore } from '@cairn/core';
import { pageOf } from './jsonl-agents.js';
import type { JsonlState } from './jsonl-state.js';
import { jsonCopy } from './record-copy.js';
import { alreadyExistsError, notFoundError } from './store-errors.js';

export function createJsonlRunsStore(state: JsonlState): RunsStore {
  return {
    async create(record) {
      await state.ready();
      if (state.runs.has(record.runId)) throw alreadyExistsError('run', record.runId);
      const stored = jsonCopy(record);
      state.runs.set(stored.runId, stored);
      await state.persist('runs', [{ type: 'run', record: stored }]);
    },
    async get(runId) {
      await state.ready();
      const record = state.runs.get(runId);
      return record === undefined ? undefined : jsonCopy(record);
    },
    async update(runId, patch) {
      await state.ready();
      const record = state.runs.get(runId);
      if (record === undefined) throw notFoundError('run', runId);
      const updated = jsonCopy({ ...record, ...patch, runId, agentId: record.agentId });
      state.runs.set(runId, updated);
      await state.persist('runs', [{ type: 'run', record: updated }]);
      return jsonCopy(updated);
    },
    async list(agentId, options = {}) {
      await state.ready();
      const matching = [...state.runs.values()].filter(
        (record) => record.agentId === agentId && (options.status === undefined || record.status === options.status),
      );
      return pageOf(matching, (record) => [record.createdAt, record.runId], options);
    },
  };
}
