import type { RunEvent } from '../spec/events/v1/index.js';
import type { RunEventsStore, StoredRunEvent } from '../spec/store/v1/index.js';

/** How long enqueued events may wait before they are written, and how many may wait at most. */
export interface RunEventLogOptions {
  /** Default 16 ms: a reader following the run sees a streamed delta at most this much later. */
  flushWindowMs?: number;
  /** Default 256: a burst of this many enqueued events is written at once, without waiting for the window. */
  maxBatch?: number;
}

/**
 * The write side of one live run's event log. Events reach the store in the order they were given,
 * `append`ed or `enqueue`d, and in-process readers are woken after each write.
 * - `enqueue` does not wait: the many small updates of a streamed turn are coalesced and written
 *   together (one store append, one transaction) `flushWindowMs` after the first of them, or at once
 *   when `maxBatch` are waiting. It returns the promise of that write, for a caller that wants to
 *   know when they are durable (ignoring it is safe: it never becomes an unhandled rejection).
 * - `append` resolves once its events, and everything enqueued before them, are in the store.
 * - `flush` resolves once everything given so far is in the store.
 * Writes run one at a time; each takes everything waiting when it starts, so appends that arrive
 * while a write is in flight share the next one. A failed write is not retried and never silently
 * lost: it rejects the `append`/`flush` that asked for it (and the promise `enqueue` returned), or,
 * for enqueued events, the next `append` or `flush`; every write after it fails with the same error
 * (offsets would no longer follow the order of updates).
 */
export class RunEventLog {
  private tail: Promise<void> = Promise.resolve();
  /** The next write, chained but not started: it takes every event waiting when it starts. */
  private queued: { promise: Promise<void>; start: () => void } | undefined;
  private pending: RunEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly waiters = new Set<() => void>();
  private failure: { error: unknown } | undefined;
  /** The writer `commitWith` gave for the next write, instead of a plain append. */
  private custom: ((events: RunEvent[]) => Promise<void>) | undefined;
  private readonly flushWindowMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly store: RunEventsStore,
    readonly runId: string,
    options: RunEventLogOptions = {},
  ) {
    this.flushWindowMs = positiveOption(options.flushWindowMs, 16, 'flushWindowMs');
    this.maxBatch = positiveOption(options.maxBatch, 256, 'maxBatch');
  }

  /** Queue events for a coalesced write; never waits. Resolves once they are in the store. */
  enqueue(events: RunEvent[]): Promise<void> {
    for (const event of events) this.pending.push(event);
    return this.write(this.pending.length >= this.maxBatch);
  }

  /** Write events after everything queued before them; resolves once they are in the store. */
  append(events: RunEvent[]): Promise<void> {
    for (const event of events) this.pending.push(event);
    return this.write(true);
  }

  /**
   * A write like the others (in turn, taking every waiting event, possibly none) that hands its
   * events to `write`, which stores them with other data in one transaction (a checkpoint save:
   * `AgentStore.commitStep`). Offsets keep the order events were given; a failure of `write` is a
   * failed write of this log.
   */
  commitWith<T>(write: (events: RunEvent[]) => Promise<T>): Promise<T> {
    if (this.custom) return Promise.reject(new Error('RunEventLog.commitWith: a combined write is already waiting; wait for it first.'));
    let result: { value: T } | undefined;
    this.custom = async (events) => {
      result = { value: await write(events) };
    };
    return this.write(true).then(() => (result as { value: T }).value);
  }

  /** Resolves once every event given so far is in the store; rejects with a write's failure. */
  flush(): Promise<void> {
    return this.write(true);
  }

  /** The same as `flush`. */
  flushed(): Promise<void> {
    return this.write(true);
  }

  /** Resolves at the next write (or after `timeoutMs`). */
  waitForAppend(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Wake readers without an append (the run ended). */
  wakeAll(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * The next write: the one already chained (started `now`, or when the window ends), or a new one
   * behind the write in flight. It takes every waiting event when it starts, so it resolves once
   * everything given before this call is durable.
   */
  private write(now: boolean): Promise<void> {
    if (!this.queued) {
      let start: () => void = () => undefined;
      const started = new Promise<void>((resolve) => (start = resolve));
      const promise = Promise.all([this.tail, started]).then(() => this.writePending());
      this.queued = { promise, start };
      this.tail = promise.catch(() => undefined);
      if (!now) this.timer = setTimeout(start, this.flushWindowMs);
    }
    if (now) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.queued.start();
    }
    return this.queued.promise;
  }

  private async writePending(): Promise<void> {
    this.queued = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    const custom = this.custom;
    this.custom = undefined;
    if (this.failure) throw this.failure.error;
    if (this.pending.length === 0 && !custom) return;
    const batch = this.pending;
    this.pending = [];
    try {
      await (custom ? custom(batch) : this.store.append(this.runId, batch));
    } catch (error) {
      this.failure = { error };
      throw error;
    } finally {
      this.wakeAll();
    }
  }
}

function positiveOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`RunEventLog: ${name} must be a positive number, got ${String(value)}.`);
  return value;
}

/** Terminal status values: the reference SDK's, and the lower-case ones logs of older Cairn versions hold. */
const finalStatuses = new Set(['FINISHED', 'ERROR', 'CANCELLED', 'EXPIRED', 'finished', 'error', 'cancelled']);

/** The run's final status event: nothing is appended after it. */
export function isFinalRunEvent(event: RunEvent): boolean {
  return event.kind === 'message' && event.message.type === 'status' && finalStatuses.has((event.message as { status?: string }).status ?? '');
}

/**
 * Read a run's log from the first event and follow it until the run is done. Works for live runs
 * in this process (woken on append) and for runs of other processes (polling the shared store).
 * It ends after the final status event, or when the run is done (checked before reading a page,
 * so every event appended before it ended is read) and the log has no more events.
 */
export async function* tailRunEvents(
  store: RunEventsStore,
  runId: string,
  options: { isDone(): Promise<boolean> | boolean; waitForMore(afterOffset: number): Promise<void>; pageSize?: number; afterOffset?: number },
): AsyncGenerator<StoredRunEvent> {
  let afterOffset = options.afterOffset ?? 0;
  let sawFinal = false;
  for (;;) {
    const doneBefore = sawFinal || (await options.isDone());
    const page = await store.list(runId, { afterOffset, limit: options.pageSize ?? 500 });
    for (const event of page.events) {
      sawFinal ||= isFinalRunEvent(event.event);
      yield event;
    }
    afterOffset = page.nextOffset;
    if (page.events.length > 0) continue;
    if (doneBefore) return;
    await options.waitForMore(afterOffset);
  }
}
