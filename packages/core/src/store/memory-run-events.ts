import type { RunEvent } from '../spec/events/v1/events.js';
import type { RunEventsStore, StoredRunEvent } from '../spec/store/v1/store.js';
import { copyRecord } from './record-copy.js';
import { invalidArgumentError } from './store-errors.js';

/** Event logs per run: index i holds the event at offset i + 1, so offsets are dense from 1. */
export type MemoryRunLogs = Map<string, RunEvent[]>;

/** Appends synchronously (the memory store's `commitStep` does it with its other writes, no task in between). */
export function appendRunEvents(logs: MemoryRunLogs, runId: string, events: ReadonlyArray<RunEvent>): { lastOffset: number } {
  let log = logs.get(runId);
  if (log === undefined) logs.set(runId, (log = []));
  for (const event of events) log.push(copyRecord(event));
  return { lastOffset: log.length };
}

export function createMemoryRunEventsStore(logs: MemoryRunLogs = new Map()): RunEventsStore {
  return {
    async append(runId, events) {
      return appendRunEvents(logs, runId, events);
    },
    async list(runId, options = {}) {
      const { afterOffset, limit } = normalizeEventListOptions(options);
      const log = logs.get(runId) ?? [];
      const end = limit === undefined ? log.length : Math.min(log.length, afterOffset + limit);
      const events: StoredRunEvent[] = [];
      for (let index = afterOffset; index < end; index++) {
        events.push({ offset: index + 1, event: copyRecord(log[index] as RunEvent) });
      }
      return { events, nextOffset: events.at(-1)?.offset ?? afterOffset };
    },
  };
}

/**
 * `afterOffset` defaults to 0; `limit` is optional (no limit: every event after `afterOffset`).
 * `nextOffset` is the offset of the last returned event, or `afterOffset` when none was returned,
 * so a tailing reader can poll with it unchanged.
 */
export function normalizeEventListOptions(options: { afterOffset?: number; limit?: number }): {
  afterOffset: number;
  limit: number | undefined;
} {
  const afterOffset = options.afterOffset ?? 0;
  if (!Number.isInteger(afterOffset) || afterOffset < 0) {
    throw invalidArgumentError(`Invalid afterOffset ${String(afterOffset)}: use 0 or a previous nextOffset.`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
    throw invalidArgumentError(`Invalid event limit ${String(options.limit)}: use a positive integer.`);
  }
  return { afterOffset, limit: options.limit };
}
