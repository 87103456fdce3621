import type { RunEvent, RunEventsStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { invalidArgumentError, logLimitError } from './store-errors.js';

/** The low 32 bits of an event's key hold its offset (schema migration 3), the high bits its run's log. */
const maxOffset = 0xffffffff;
/** Log numbers above this would carry into the key's sign bit. */
const maxLogId = 0x7fffffff;

// Keys are built and split in SQL: they pass 2^53, beyond what a JavaScript number holds exactly.
const firstKey = '(@log << 32)';
const lastKey = `((@log << 32) | ${maxOffset})`;

/**
 * Appends serialised events to a run's log, to be called inside a write transaction (an append's
 * own, or `commitStep`'s): offsets are assigned under the write lock, so two processes appending
 * to the same run get distinct, dense offsets.
 */
export function prepareEventAppend(database: Database.Database, path: string): (runId: string, serialised: string[]) => { lastOffset: number } {
  const logOf = database.prepare<[string], { log_id: number }>('SELECT log_id FROM run_logs WHERE run_id = ?');
  const newLog = database.prepare('INSERT INTO run_logs (run_id) VALUES (?)');
  const lastOffset = database.prepare<{ log: number }, { last: number | null }>(
    `SELECT MAX(event_key) & ${maxOffset} AS last FROM run_events WHERE event_key BETWEEN ${firstKey} AND ${lastKey}`,
  );
  const insert = database.prepare<{ log: number; offset: number; event: string }>('INSERT INTO run_events (event_key, event) VALUES ((@log << 32) | @offset, @event)');

  /** A run's first append numbers its log (inside the append's transaction). */
  const numberLog = (runId: string): number => {
    const log = Number(newLog.run(runId).lastInsertRowid);
    if (log > maxLogId) throw logLimitError(path, `it has numbered ${maxLogId} run logs, the most its event keys hold`);
    return log;
  };

  return (runId, serialised) => {
    const known = logOf.get(runId)?.log_id;
    let offset = known === undefined ? 0 : (lastOffset.get({ log: known })?.last ?? 0);
    if (serialised.length === 0) return { lastOffset: offset };
    if (offset + serialised.length > maxOffset) throw logLimitError(path, `run ${runId} would have more than ${maxOffset} events`);
    const log = known ?? numberLog(runId);
    for (const event of serialised) insert.run({ log, offset: ++offset, event });
    return { lastOffset: offset };
  };
}

/** Serialise before taking the lock: JSON.stringify escapes lone surrogates, so the text is valid UTF-8. */
export const serialiseEvents = (events: ReadonlyArray<RunEvent>): string[] => events.map((event) => JSON.stringify(event));

export function createSqliteRunEventsStore(database: Database.Database, path: string): RunEventsStore {
  const logOf = database.prepare<[string], { log_id: number }>('SELECT log_id FROM run_logs WHERE run_id = ?');
  const select = database.prepare<{ log: number; after: number; limit: number }, { offset: number; event: string }>(
    `SELECT event_key & ${maxOffset} AS "offset", event FROM run_events WHERE event_key > ((@log << 32) | @after) AND event_key <= ${lastKey} ORDER BY event_key LIMIT @limit`,
  );
  // A batch is one transaction (one commit for many events).
  const append = database.transaction(prepareEventAppend(database, path)).immediate.bind(null);

  return {
    append: (runId, events) => {
      const serialised = serialiseEvents(events);
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
        const log = logOf.get(runId)?.log_id;
        if (log === undefined || afterOffset >= maxOffset) return { events: [], nextOffset: afterOffset };
        const rows = select.all({ log, after: afterOffset, limit: options.limit ?? -1 });
        const events = rows.map((row) => ({ offset: row.offset, event: JSON.parse(row.event) as RunEvent }));
        return { events, nextOffset: events.at(-1)?.offset ?? afterOffset };
      }),
  };
}
