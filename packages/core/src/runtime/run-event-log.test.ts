import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../spec/events/v1/index.js';
import type { RunEventsStore } from '../spec/store/v1/index.js';
import { createMemoryRunEventsStore } from '../store/memory-run-events.js';
import { RunEventLog } from './run-event-log.js';

const update = (text: string): RunEvent => ({ kind: 'update', update: { type: 'text-delta', text } });
const texts = (events: Array<{ event: RunEvent }>) => events.map(({ event }) => (event.kind === 'update' && event.update.type === 'text-delta' ? event.update.text : '?'));

/** The memory store, counting its appends; `failNext` makes the next append throw. */
function countingStore() {
  const inner = createMemoryRunEventsStore();
  const store = {
    appends: 0,
    failNext: undefined as Error | undefined,
    append: async (runId: string, events: RunEvent[]) => {
      store.appends++;
      if (store.failNext) {
        const error = store.failNext;
        store.failNext = undefined;
        throw error;
      }
      return inner.append(runId, events);
    },
    list: inner.list,
  } satisfies RunEventsStore & Record<string, unknown>;
  return store;
}

describe('RunEventLog', () => {
  it('commitWith hands every waiting event to its writer, in turn with the other writes, and resolves what was enqueued with it', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1', { flushWindowMs: 10_000 });
    await log.append([update('a')]);
    const enqueued = log.enqueue([update('b'), update('c')]);
    const taken: string[][] = [];
    const result = await log.commitWith(async (events) => {
      taken.push(texts(events.map((event) => ({ event }))));
      await store.append('run-1', events);
      return 'committed';
    });
    expect(result).toBe('committed');
    await enqueued;
    expect(taken).toEqual([['b', 'c']]);
    // An empty commit still runs its writer (a checkpoint with no events), and later events follow.
    expect(await log.commitWith(async (events) => events.length)).toBe(0);
    await log.append([update('d')]);
    expect(texts((await store.list('run-1')).events)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a failed commitWith is a failed write: it rejects, and so does every later write', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1');
    const failure = new Error('disk full');
    const enqueued = log.enqueue([update('a')]);
    await expect(log.commitWith(async () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(enqueued).rejects.toBe(failure);
    await expect(log.append([update('b')])).rejects.toBe(failure);
    expect((await store.list('run-1')).events).toEqual([]);
  });

  it('keeps the order of events across enqueue and append, and append waits for what was enqueued before it', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1');
    log.enqueue([update('a'), update('b')]);
    const first = log.append([update('c')]);
    log.enqueue([update('d')]);
    const second = log.append([update('e'), update('f')]);
    log.enqueue([update('g')]);
    await first;
    // Durable on resolve: everything before c, and c, is in the store.
    expect(texts((await store.list('run-1')).events).slice(0, 3)).toEqual(['a', 'b', 'c']);
    await second;
    await log.flush();
    expect(texts((await store.list('run-1')).events)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('coalesces many enqueued events into few store appends', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1');
    for (let index = 0; index < 200; index++) log.enqueue([update(String(index))]);
    await log.flush();
    expect(store.appends).toBe(1);
    expect((await store.list('run-1')).events).toHaveLength(200);
  });

  it('writes a burst of maxBatch events without waiting for the window, still as one append', async () => {
    const store = countingStore();
    // A window no test waits for: only the batch size can trigger this write.
    const log = new RunEventLog(store, 'run-1', { flushWindowMs: 3_600_000, maxBatch: 10 });
    for (let index = 0; index < 25; index++) log.enqueue([update(String(index))]);
    const woken = log.waitForAppend(3_600_000);
    await woken;
    expect(store.appends).toBe(1);
    expect((await store.list('run-1')).events).toHaveLength(25);
    await log.flush();
    expect(store.appends).toBe(1);
  });

  it('writes enqueued events by itself after the window, and wakes readers', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1', { flushWindowMs: 1 });
    const woken = log.waitForAppend(3_600_000);
    log.enqueue([update('a')]);
    await woken;
    expect(texts((await store.list('run-1')).events)).toEqual(['a']);
  });

  it('shares one write between appends that arrive while another is in flight', async () => {
    const store = countingStore();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const append = store.append;
    store.append = async (runId, events) => {
      if (store.appends === 0) await gate;
      return append(runId, events);
    };
    const log = new RunEventLog(store, 'run-1');
    const first = log.append([update('a')]);
    // Let the first write start (it now waits at the gate), then append twice while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    const later = [log.append([update('b')]), log.append([update('c')]), log.flush()];
    release();
    await Promise.all([first, ...later]);
    expect(texts((await store.list('run-1')).events)).toEqual(['a', 'b', 'c']);
    // b and c waited for a and went together.
    expect(store.appends).toBe(2);
  });

  it('puts appends made in the same tick into one write', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1');
    await Promise.all([log.append([update('a')]), log.append([update('b')]), log.flush()]);
    expect(store.appends).toBe(1);
    expect(texts((await store.list('run-1')).events)).toEqual(['a', 'b']);
  });

  it('surfaces a failed background write at the next append and flush, and writes nothing after it', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1', { flushWindowMs: 1 });
    await log.append([update('a')]);
    store.failNext = new Error('disk full');
    const woken = log.waitForAppend(3_600_000);
    log.enqueue([update('b')]);
    await woken;
    await expect(log.append([update('c')])).rejects.toThrow('disk full');
    await expect(log.flush()).rejects.toThrow('disk full');
    expect(texts((await store.list('run-1')).events)).toEqual(['a']);
  });

  it('rejects the append whose own write failed', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1');
    store.failNext = new Error('locked');
    log.enqueue([update('a')]);
    await expect(log.append([update('b')])).rejects.toThrow('locked');
  });

  it('enqueue returns the promise of the write that takes its events', async () => {
    const store = countingStore();
    const log = new RunEventLog(store, 'run-1', { flushWindowMs: 1 });
    const first = log.enqueue([update('a')]);
    const second = log.enqueue([update('b')]);
    await first;
    expect(texts((await store.list('run-1')).events)).toEqual(['a', 'b']);
    await second;
    expect(store.appends).toBe(1);
    store.failNext = new Error('gone');
    await expect(log.enqueue([update('c')])).rejects.toThrow('gone');
  });

  it('refuses a window or batch size that is not a positive number', () => {
    expect(() => new RunEventLog(countingStore(), 'run-1', { flushWindowMs: 0 })).toThrow(/flushWindowMs must be a positive number/);
    expect(() => new RunEventLog(countingStore(), 'run-1', { maxBatch: Number.NaN })).toThrow(/maxBatch must be a positive number/);
  });
});
