import type { AgentRecord, AgentsStore, ListOptions, ListResult } from '@cairn/core';
import type { JsonlState } from './jsonl-state.js';
import { decodeListCursor, encodeListCursor, type ListSortKey, normalizeListLimit } from '@cairn/core';
import { jsonCopy } from './record-copy.js';
import { notFoundError } from './store-errors.js';

// Leases are checked and set synchronously in this process's memory, so they are atomic within
// the process; the directory lock keeps a second process out (see docs/stores.md).
export function createJsonlAgentsStore(state: JsonlState): AgentsStore {
  const save = (record: AgentRecord) => state.persist('agents', [{ type: 'agent', record }]).then(() => undefined);
  const existing = (agentId: string) => {
    const record = state.agents.get(agentId);
    if (record === undefined) throw notFoundError('agent', agentId);
    return record;
  };

  return {
    async put(record) {
      await state.ready();
      const stored = jsonCopy(record);
      state.agents.set(stored.agentId, stored);
      await save(stored);
    },
    async get(agentId) {
      await state.ready();
      const record = state.agents.get(agentId);
      return record === undefined ? undefined : jsonCopy(record);
    },
    async update(agentId, patch) {
      await state.ready();
      const updated = jsonCopy({ ...existing(agentId), ...patch, agentId });
      state.agents.set(agentId, updated);
      await save(updated);
      return jsonCopy(updated);
    },
    async list(options = {}) {
      await state.ready();
      const matching = [...state.agents.values()].filter(
        (record) => (options.cwd === undefined || record.cwd === options.cwd) && (options.includeArchived === true || !record.archived),
      );
      return pageOf(matching, (record) => [record.createdAt, record.agentId], options);
    },
    async delete(agentId) {
      await state.ready();
      if (!state.agents.delete(agentId)) return;
      await state.persist('agents', [{ type: 'agent-deleted', agentId }]);
    },
    async acquireLease(agentId, lease, options = {}) {
      await state.ready();
      const record = existing(agentId);
      const held = record.lease;
      const now = options.now ?? Date.now();
      if (!(options.force === true || held === null || held.expiresAt <= now || (held.runId === lease.runId && held.owner === lease.owner))) {
        return { acquired: false, holder: jsonCopy(held) };
      }
      const updated = { ...record, lease: jsonCopy(lease) };
      state.agents.set(agentId, updated);
      await save(updated);
      return { acquired: true };
    },
    async renewLease(agentId, runId, expiresAt) {
      await state.ready();
      const record = state.agents.get(agentId);
      if (record?.lease?.runId !== runId) return false;
      const updated = { ...record, lease: { ...record.lease, expiresAt } };
      state.agents.set(agentId, updated);
      await save(updated);
      return true;
    },
    async releaseLease(agentId, runId) {
      await state.ready();
      const record = state.agents.get(agentId);
      if (record?.lease?.runId !== runId) return;
      const updated = { ...record, lease: null };
      state.agents.set(agentId, updated);
      await save(updated);
    },
  };
}

/** One page newest first, strictly after the cursor's sort key. Shared with the runs store. */
export function pageOf<T>(records: T[], keyOf: (record: T) => ListSortKey, options: ListOptions): ListResult<T> {
  const limit = normalizeListLimit(options.limit);
  const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
  const compare = (left: ListSortKey, right: ListSortKey) =>
    left[0] !== right[0] ? right[0] - left[0] : left[1] === right[1] ? 0 : left[1] > right[1] ? -1 : 1;
  const sorted = records
    .map((record) => ({ record, key: keyOf(record) }))
    .filter((entry) => after === undefined || compare(after, entry.key) < 0)
    .sort((left, right) => compare(left.key, right.key));
  const page = sorted.slice(0, limit);
  const last = page.at(-1);
  const result: ListResult<T> = { items: page.map((entry) => jsonCopy(entry.record)) };
  if (sorted.length > limit && last !== undefined) result.nextCursor = encodeListCursor(last.key);
  return result;
}
