import type { AgentLease, AgentRecord, AgentsStore, LeaseResult, ListOptions, ListResult } from '../spec/store/v1/store.js';
import { canTakeLease } from './lease-rules.js';
import { compareListKeys, decodeListCursor, encodeListCursor, type ListSortKey, normalizeListLimit } from './list-cursor.js';
import { applyPatch, copyRecord } from './record-copy.js';
import { notFoundError } from './store-errors.js';

export type MemoryAgents = Map<string, AgentRecord>;

function existing(agents: MemoryAgents, agentId: string): AgentRecord {
  const record = agents.get(agentId);
  if (record === undefined) throw notFoundError('agent', agentId);
  return record;
}

/** `agents.update` without the promise, for a checkpoint commit; returns a copy of the updated record. */
export function updateAgent(agents: MemoryAgents, agentId: string, patch: Partial<Omit<AgentRecord, 'agentId'>>): AgentRecord {
  const updated = applyPatch(existing(agents, agentId), { ...patch, agentId });
  agents.set(agentId, updated);
  return copyRecord(updated);
}

/** Agents in a Map (pass one to share it with a checkpoint commit); every record is copied on the way in and out. */
export function createMemoryAgentsStore(agents: MemoryAgents = new Map()): AgentsStore {
  const require = (agentId: string): AgentRecord => existing(agents, agentId);

  return {
    async put(record) {
      agents.set(record.agentId, copyRecord(record));
    },
    async get(agentId) {
      const record = agents.get(agentId);
      return record === undefined ? undefined : copyRecord(record);
    },
    async update(agentId, patch) {
      return updateAgent(agents, agentId, patch);
    },
    async list(options = {}) {
      const matching = [...agents.values()].filter(
        (record) => (options.cwd === undefined || record.cwd === options.cwd) && (options.includeArchived === true || !record.archived),
      );
      return pageOf(matching, (record) => [record.createdAt, record.agentId], options);
    },
    async delete(agentId) {
      agents.delete(agentId);
    },
    async acquireLease(agentId, lease, options = {}): Promise<LeaseResult> {
      const record = require(agentId);
      if (!canTakeLease(record.lease, lease, options.now ?? Date.now(), options.force === true)) {
        return { acquired: false, holder: copyRecord(record.lease as AgentLease) };
      }
      record.lease = copyRecord(lease);
      return { acquired: true };
    },
    async renewLease(agentId, runId, expiresAt) {
      const record = agents.get(agentId);
      if (record?.lease?.runId !== runId) return false;
      record.lease = { ...record.lease, expiresAt };
      return true;
    },
    async releaseLease(agentId, runId) {
      const record = agents.get(agentId);
      if (record?.lease?.runId === runId) record.lease = null;
    },
  };
}

/** One page in list order (newest first), starting after the cursor's key. Shared with the runs store. */
export function pageOf<T>(records: T[], keyOf: (record: T) => ListSortKey, options: ListOptions): ListResult<T> {
  const limit = normalizeListLimit(options.limit);
  const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
  const sorted = records
    .map((record) => ({ record, key: keyOf(record) }))
    .filter((entry) => after === undefined || compareListKeys(after, entry.key) < 0)
    .sort((left, right) => compareListKeys(left.key, right.key));
  const page = sorted.slice(0, limit);
  const last = page.at(-1);
  const result: ListResult<T> = { items: page.map((entry) => copyRecord(entry.record)) };
  if (sorted.length > limit && last !== undefined) result.nextCursor = encodeListCursor(last.key);
  return result;
}
