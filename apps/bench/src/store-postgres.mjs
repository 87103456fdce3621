// The Postgres store against the SQLite store, from their built packages (run `pnpm build` first):
// run-event append latency (batches of 1 and 16 events) and tail latency (an append in one store
// instance until a reader in another instance has it from list). The Postgres reader wakes
// through waitForAppend (LISTEN/NOTIFY); the SQLite store has no waitForAppend, so its reader
// polls list every 100 ms, as stream() does for a shared store. Both instances of a pair run in
// this process (one clock for both ends), each with its own connection pool or database handle.
// Needs CAIRN_TEST_POSTGRES_URL (scripts/start-postgres.sh prints it). Prints one JSON object per line.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqliteStore } from '@cairn/store-sqlite';
import { percentile, round } from './stats.mjs';

const url = process.env.CAIRN_TEST_POSTGRES_URL;
if (!url) {
  console.error("store-postgres: set CAIRN_TEST_POSTGRES_URL=postgres://… (scripts/start-postgres.sh starts Debian's PostgreSQL and prints it).");
  process.exit(1);
}
const { createPostgresStore } = await import(new URL('../../../packages/stores/postgres/dist/index.js', import.meta.url).href);

const appendRounds = { 1: 1000, 16: 400 };
const tailEvents = 200;
const tailSpacingMs = 20;
const sqlitePollMs = 100;

// A typical streamed text delta (~120 bytes of JSON).
const event = (index) => ({ kind: 'update', update: { type: 'text-delta', text: `token ${index} of a streamed assistant answer, a few words long` } });
const summary = (samples) => ({ p50Ms: round(percentile(samples, 50), 3), p95Ms: round(percentile(samples, 95), 3) });
const ratio = (postgres, sqlite) => ({ p50: round(postgres.p50Ms / sqlite.p50Ms), p95: round(postgres.p95Ms / sqlite.p95Ms) });

async function appendLatency(store, batchSize) {
  const batch = Array.from({ length: batchSize }, (_, index) => event(index));
  const runId = `run-append-${batchSize}`;
  for (let index = 0; index < 50; index++) await store.runEvents.append(`${runId}-warm-up`, batch);
  const samples = [];
  for (let index = 0; index < appendRounds[batchSize]; index++) {
    const started = performance.now();
    await store.runEvents.append(runId, batch);
    samples.push(performance.now() - started);
  }
  return summary(samples);
}

/** The reader lists after its offset; with nothing new it waits (Postgres) or sleeps (SQLite polling). */
async function read(reader, runId, waitForMore, seenAt) {
  let afterOffset = 0;
  while (afterOffset < tailEvents) {
    const page = await reader.runEvents.list(runId, { afterOffset });
    const now = performance.now();
    for (const stored of page.events) seenAt[stored.offset] = now;
    afterOffset = page.nextOffset;
    if (page.events.length === 0) await waitForMore(afterOffset);
  }
}

async function tailLatency(writer, reader, waitForMore) {
  const runId = 'run-tail';
  const appendedAt = [];
  const seenAt = [];
  const reading = read(reader, runId, waitForMore, seenAt);
  for (let offset = 1; offset <= tailEvents; offset++) {
    // Uneven spacing, so appends do not fall in step with the SQLite reader's polls.
    await sleep(tailSpacingMs * (0.5 + Math.random()));
    appendedAt[offset] = performance.now();
    await writer.runEvents.append(runId, [event(offset)]);
  }
  await reading;
  return summary(appendedAt.slice(1).map((at, index) => seenAt[index + 1] - at));
}

async function measurePostgres() {
  const schema = `cairn_bench_${randomBytes(5).toString('hex')}`;
  const writer = await createPostgresStore({ connectionString: url, schema });
  const reader = await createPostgresStore({ connectionString: url, schema });
  try {
    const waitForMore = (afterOffset) => reader.runEvents.waitForAppend('run-tail', afterOffset, { timeoutMs: 5000 });
    return { append1: await appendLatency(writer, 1), append16: await appendLatency(writer, 16), tail: await tailLatency(writer, reader, waitForMore) };
  } finally {
    await reader.close();
    await writer.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await writer.close();
  }
}

async function measureSqlite() {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-store-postgres-'));
  const writer = createSqliteStore({ path: join(root, 'agents.db') });
  const reader = createSqliteStore({ path: join(root, 'agents.db') });
  try {
    const waitForMore = () => sleep(sqlitePollMs);
    return { append1: await appendLatency(writer, 1), append16: await appendLatency(writer, 16), tail: await tailLatency(writer, reader, waitForMore) };
  } finally {
    reader.close();
    writer.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const postgres = await measurePostgres();
const sqlite = await measureSqlite();
const lines = [
  { case: 'append, batches of 1 event', rounds: appendRounds[1], postgres: postgres.append1, sqlite: sqlite.append1 },
  { case: 'append, batches of 16 events', rounds: appendRounds[16], postgres: postgres.append16, sqlite: sqlite.append16 },
  {
    case: 'tail: append in one instance until a reader in another has it',
    events: tailEvents,
    postgresReader: 'waitForAppend (LISTEN/NOTIFY) then list',
    sqliteReader: `list every ${sqlitePollMs} ms (the SQLite store has no waitForAppend)`,
    postgres: postgres.tail,
    sqlite: sqlite.tail,
  },
];
for (const line of lines) {
  console.log(JSON.stringify({ benchmark: 'store-postgres', ...line, ratioPostgresToSqlite: ratio(line.postgres, line.sqlite) }));
}
