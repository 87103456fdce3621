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
 *   together (one store append, one transaction) within `flushWindowMs`, or at once when `maxBatch`
 *   are waiting.
 * - `append` resolves once its events, and everything enqueued before them, are in the store.
 * - `flush` resolves once everything given so far is in the store.
 * Writes run one at a time; each takes everything waiting when its turn comes, so appends that
 * arrive while a write is in flight share the next one. A failed write is not retried and never
 * silently lost: it rejects the `append`/`flush` that asked for it, or, for enqueued events, the
 * next `append` or `flush`; every write after it fails with the same error (offsets would no
 * longer follow the order of updates).
 */
export class RunEventLog {
  private tail: Promise<void> = Promise.resolve();
  /** The chained write that has not started yet: it will take every event waiting when it starts. */
  private queued: Promise<void> | undefined;
  private pending: RunEvent[] = [];
  /** Settled by the write that takes the events enqueued since the last one. */
  private nextWrite: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly waiters = new Set<() => void>();
  private failure: { error: unknown } | undefined;
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

  /**
   * Queue events for the next write; never forces it. The returned promise resolves once they are in
   * the store (a caller that shows them only then never shows an event a crash could lose); a failed
   * write rejects it, and surfaces at the next `append` or `flush` too.
   */
  enqueue(events: RunEvent[]): Promise<void> {
    const durable = this.nextWriteDone();
    if (events.length === 0) return durable;
    for (const event of events) this.pending.push(event);
    if (this.queued) return durable;
    if (this.pending.length >= this.maxBatch) this.writeInBackground();
    else this.timer ??= setTimeout(() => this.writeInBackground(), this.flushWindowMs);
    return durable;
  }

  /** The promise of the write that will take the events waiting now. */
  private nextWriteDone(): Promise<void> {
    if (!this.nextWrite) {
      let settle!: { resolve: () => void; reject: (error: unknown) => void };
      const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      // Callers may ignore it: the failure is reported by the next append or flush as well.
      promise.catch(() => undefined);
      this.nextWrite = { promise, ...settle };
    }
    return this.nextWrite.promise;
  }

  /** Write events after everything queued before them; resolves once they are in the store. */
  append(events: RunEvent[]): Promise<void> {
    for (const event of events) this.pending.push(event);
    return this.write();
  }

  /** Resolves once every event given so far is in the store; rejects with a write's failure. */
  flush(): Promise<void> {
    return this.write();
  }

  /** The same as `flush`. */
  flushed(): Promise<void> {
    return this.write();
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

  /** Its failure is kept and surfaces at the next append or flush. */
  private writeInBackground(): void {
    this.write().catch(() => undefined);
  }

  /**
   * Chain one write behind the one in flight (or share the one already waiting). When its turn
   * comes it takes every waiting event, so it resolves once everything given before this call is durable.
   */
  private write(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queued) return this.queued;
    const next = this.tail.then(async () => {
      this.queued = undefined;
      const waiting = this.nextWrite;
      this.nextWrite = undefined;
      if (this.failure) {
        waiting?.reject(this.failure.error);
        throw this.failure.error;
      }
      const batch = this.pending;
      this.pending = [];
      if (batch.length === 0) return waiting?.resolve();
      try {
        await this.store.append(this.runId, batch);
        waiting?.resolve();
      } catch (error) {
        this.failure = { error };
        waiting?.reject(error);
        throw error;
      } finally {
        this.wakeAll();
      }
    });
    this.queued = next;
    this.tail = next.catch(() => undefined);
    return next;
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
  options: { isDone(): Promise<boolean> | boolean; waitForMore(): Promise<void>; pageSize?: number },
): AsyncGenerator<StoredRunEvent> {
  let afterOffset = 0;
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
    await options.waitForMore();
  }
}
