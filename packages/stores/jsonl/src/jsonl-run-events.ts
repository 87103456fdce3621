import type { RunEvent, RunEventsStore, StoredRunEvent } from '@cairn/core';
import type { JsonlState } from './jsonl-state.js';
import { invalidArgumentError } from './store-errors.js';

export function createJsonlRunEventsStore(state: JsonlState): RunEventsStore {
  return {
    async append(runId, events) {
      await state.ready();
      let log = state.events.get(runId);
      if (log === undefined) state.events.set(runId, (log = []));
      // Offsets are assigned synchronously; the log file writes in the same order.
      const records = events.map((event) => {
        const text = JSON.stringify(event);
        log.push(text);
        return `{"runId":${JSON.stringify(runId)},"offset":${log.length},"event":${text}}`;
      });
      const lastOffset = log.length;
      if (records.length > 0) await state.persistLines('runEvents', records);
      return { lastOffset };
    },
    async list(runId, options = {}) {
      await state.ready();
      const afterOffset = options.afterOffset ?? 0;
      if (!Number.isInteger(afterOffset) || afterOffset < 0) {
        throw invalidArgumentError(`Invalid afterOffset ${String(afterOffset)}: use 0 or a previous nextOffset.`);
      }
      if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
        throw invalidArgumentError(`Invalid event limit ${String(options.limit)}: use a positive integer.`);
      }
      const log = state.events.get(runId) ?? [];
      const end = options.limit === undefined ? log.length : Math.min(log.length, afterOffset + options.limit);
      const listed: StoredRunEvent[] = [];
      for (let index = afterOffset; index < end; index++) listed.push({ offset: index + 1, event: JSON.parse(log[index] as string) as RunEvent });
      return { events: listed, nextOffset: listed.at(-1)?.offset ?? afterOffset };
    },
  };
}
