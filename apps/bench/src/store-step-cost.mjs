// What one runtime step costs the SQLite store: the write calls (each is one transaction) by
// method, and the bytes of write-ahead log per step (`commitCheckpoint` is a checkpoint save's
// blobs and agent row together, `commitStep` that and the run's waiting events). A scripted zero-latency model calls a trivial tool every step.
// A second connection holds a read transaction open for the whole run, so SQLite cannot
// checkpoint and restart the WAL: the file's size is then every page the steps wrote.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@cairn/core';
import { createCairn } from '@cairn/core/node';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { createSqliteStore } from '@cairn/store-sqlite';
import { round } from './stats.mjs';

const steps = Number(process.env.BENCH_STEPS ?? 200);

/** The store's own better-sqlite3 (the bench does not depend on it directly). */
function openReader() {
  let from = import.meta.url;
  try {
    from = import.meta.resolve('@cairn/store-sqlite');
  } catch {} // bundled with the store (profiling from source): resolve from here
  return createRequire(from)('better-sqlite3');
}
const writeMethods = {
  store: ['commitCheckpoint', 'commitStep'],
  agents: ['put', 'update', 'delete', 'acquireLease', 'renewLease', 'releaseLease'],
  checkpoints: ['putBlob', 'putBlobs'],
  runs: ['create', 'update'],
  runEvents: ['append'],
};

/**
 * Counts each write method of the store (and the events each append carried), wrapping the
 * methods in place: a copy of the store with other part objects would not get its one-transaction
 * checkpoint save. The WAL growth across a call is put down to its method: writes run
 * synchronously inside the call, one at a time.
 */
function countWrites(store, walSize) {
  const counts = {};
  const walBytes = {};
  const durations = {};
  let events = 0;
  for (const [part, methods] of Object.entries(writeMethods)) {
    const target = part === 'store' ? store : store[part];
    for (const method of methods) {
      const original = target[method];
      if (typeof original !== 'function') continue;
      const name = part === 'store' ? method : `${part}.${method}`;
      target[method] = (...args) => {
        counts[name] = (counts[name] ?? 0) + 1;
        if (part === 'runEvents') events += args[1].length;
        if (method === 'commitStep') events += args[0].events.length;
        const before = walSize();
        const started = performance.now();
        const result = original.apply(target, args);
        (durations[name] ??= []).push(performance.now() - started);
        walBytes[name] = (walBytes[name] ?? 0) + walSize() - before;
        return result;
      };
    }
  }
  return { counts, walBytes, events: () => events, durations };
}

const echo = defineTool({
  id: 'echo', name: 'echo', description: 'Echo.', inputSchema: { jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, readOnly: true, category: 'custom',
  execute: ({ text }) => text,
});
const model = scriptedModel([{ text: 'step', toolCalls: [{ name: 'echo', args: { text: 'x' } }] }], { repeatLast: true });
const { Agent } = createCairn({ plugins: [{ name: 'bench', providers: [scriptedProvider({ m: model })], tools: [echo] }] });
const cwd = mkdtempSync(join(tmpdir(), 'cairn-store-step-'));
const path = join(cwd, 'agents.db');
const store = createSqliteStore({ path });
const walSize = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
const { counts, walBytes, events, durations } = countWrites(store, walSize);
const agent = await Agent.create({ model: 'scripted/m', local: { cwd, store }, maxSteps: steps });

const Database = openReader();
const reader = new Database(path, { readonly: true });
reader.exec('BEGIN');
reader.prepare('SELECT count(*) FROM agents').get();
const walBefore = walSize();
const before = { ...counts };
const walBytesBefore = { ...walBytes };
const result = await (await agent.send('go')).wait();
if (result.error?.code !== 'max_steps') throw new Error(`unexpected end: ${JSON.stringify(result.error)}`);
const walTotal = walSize() - walBefore;
reader.exec('COMMIT');
reader.close();
store.close();
rmSync(cwd, { recursive: true, force: true });

const perStep = Object.fromEntries(Object.entries(counts).map(([name, count]) => [name, round((count - (before[name] ?? 0)) / steps, 2)]));
const transactions = Object.values(perStep).reduce((sum, value) => sum + value, 0);
// A write's SQLite work runs synchronously inside the call (the promise comes back after it). Each
// method's median call time times its calls per step: a call preempted on a loaded machine does not count.
const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const writeMs = Object.entries(perStep).reduce((sum, [name, calls]) => sum + calls * median(durations[name]), 0);
console.log(JSON.stringify({
  benchmark: 'store-step-cost', store: 'sqlite', steps,
  writeTransactionsPerStep: round(transactions, 2),
  eventsPerStep: round(events() / steps, 1),
  writesPerStep: perStep,
  walKbPerStep: round(walTotal / steps / 1024, 1),
  writeMsPerStep: round(writeMs, 3),
  walKbPerStepByWrite: Object.fromEntries(Object.entries(walBytes).map(([name, bytes]) => [name, round((bytes - (walBytesBefore[name] ?? 0)) / steps / 1024, 1)]).filter(([, kb]) => kb > 0)),
}));
