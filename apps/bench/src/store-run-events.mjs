// Run-event log throughput of one store, against the built packages (run `pnpm build` first).
// Usage: node apps/bench/src/store-run-events.mjs --store sqlite|jsonl [--events 10000]; prints one
// JSON object.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonlStore } from '@cairn/store-jsonl';
import { createSqliteStore } from '@cairn/store-sqlite';

const eventsArgument = process.argv.indexOf('--events');
const totalEvents = eventsArgument === -1 ? 10_000 : Number(process.argv[eventsArgument + 1]);
const singleAppends = Math.min(totalEvents, 2_000);
const batchSize = 100;

// A typical streamed text delta (~120 bytes of JSON).
const event = (index) => ({ kind: 'update', update: { type: 'text-delta', text: `token ${index} of a streamed assistant answer, a few words long` } });
const perSecond = (count, startedAt) => Math.round(count / ((performance.now() - startedAt) / 1000));
const fileSize = (path) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Each store: how to open it under a temp folder, how big its files are, how to close it. */
const stores = {
  sqlite: (root) => {
    const path = join(root, 'agents.db');
    const store = createSqliteStore({ path });
    // Closing the last connection checkpoints the WAL into the main file.
    return { store, close: async () => store.close(), bytes: () => fileSize(path) + fileSize(`${path}-wal`) };
  },
  jsonl: (root) => {
    const dir = join(root, 'store');
    const store = createJsonlStore({ dir });
    return { store, close: () => store.close(), bytes: () => fileSize(join(dir, 'run_events.ndjson')) };
  },
};
const storeName = process.argv[process.argv.indexOf('--store') + 1];
if (!process.argv.includes('--store') || !stores[storeName]) throw new Error(`Pass --store ${Object.keys(stores).join('|')}.`);

const root = mkdtempSync(join(tmpdir(), `cairn-bench-${storeName}-`));
try {
  const opened = stores[storeName](root);
  const { store } = opened;

  let startedAt = performance.now();
  for (let index = 0; index < singleAppends; index++) await store.runEvents.append('run-single', [event(index)]);
  const singleAppendsPerSecond = perSecond(singleAppends, startedAt);

  startedAt = performance.now();
  for (let index = 0; index < totalEvents; index += batchSize) {
    await store.runEvents.append('run-batched', Array.from({ length: batchSize }, (_, item) => event(index + item)));
  }
  const batchedEventsPerSecond = perSecond(totalEvents, startedAt);

  startedAt = performance.now();
  const { events } = await store.runEvents.list('run-batched');
  const readAllMs = Math.round(performance.now() - startedAt);
  if (events.length !== totalEvents) throw new Error(`read ${events.length} events, expected ${totalEvents}`);

  startedAt = performance.now();
  let afterOffset = 0;
  for (;;) {
    const page = await store.runEvents.list('run-batched', { afterOffset, limit: 500 });
    if (page.events.length === 0) break;
    afterOffset = page.nextOffset;
  }
  const readPagedMs = Math.round(performance.now() - startedAt);

  await opened.close();
  const bytes = opened.bytes();
  console.log(
    JSON.stringify({
      store: storeName,
      events: totalEvents,
      singleAppendsPerSecond,
      batchedEventsPerSecond,
      batchSize,
      [`read${totalEvents}EventsMs`]: readAllMs,
      [`read${totalEvents}EventsPagedBy500Ms`]: readPagedMs,
      bytesPer1000Events: Math.round((bytes / (totalEvents + singleAppends)) * 1000),
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
