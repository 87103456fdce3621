import type { RunEvent, RunEventsStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { invalidArgumentError } from './store-errors.js';

export function createSqliteRunEventsStore(database: Database.Database, path: string): RunEventsStore {
  const lastOffset = database.prepare<[string], { last: number }>('SELECT COALESCE(MAX("offset"), 0) AS last FROM run_events WHERE run_id = ?');
  const insert = database.prepare('INSERT INTO run_events (run_id, "offset", event) VALUES (?, ?, ?)');
  const select = database.prepare<[string, number, number], { offset: number; event: string }>(
    'SELECT "offset", event FROM run_events WHERE run_id = ? AND "offset" > ? ORDER BY "offset" LIMIT ?',
  );

  // Offsets are assigned under the write lock (IMMEDIATE), so two processes appending to the same
  // run get distinct, dense offsets; a batch is one transaction (one commit for many events).
  const append = database
    .transaction((runId: string, serialised: string[]) => {
      let offset = lastOffset.get(runId)?.last ?? 0;
      for (const event of serialised) insert.run(runId, ++offset, event);
      return { lastOffset: offset };
    })
    .immediate.bind(null);

  return {
    append: (runId, events) => {
      // Serialise before taking the lock: JSON.stringify escapes lone surrogates, so the text is valid UTF-8.
      const serialised = events.map((event) => JSON.stringify(event));
      return withBusyRetry(path, () => append(runId, serialised));
    },
    list: (runId, options = {}) =>
      withBusyRetry(path, () => {
        const afterOffset = options.afterOffset ?? 0;
        if (!Number.isInteger(afterOffset) || afterOffset < 0) {
          throw invalidArgumentError(`Invalid afterOffset ${String(afterOffset)}: use 0 or a previous nextOffset.`);
        }
        if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) {
          throw invalidArgumentError(`Invalid event limit ${String(options.limit)}: use a positive integer.`);
        }
        const rows = select.all(runId, afterOffset, options.limit ?? -1);
        const events = rows.map((row) => ({ offset: row.offset, event: JSON.parse(row.event) as RunEvent }));
        return { events, nextOffset: events.at(-1)?.offset ?? afterOffset };
      }),
  };
}
