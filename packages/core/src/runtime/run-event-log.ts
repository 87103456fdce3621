import type { RunEvent } from '../spec/events/v1/index.js';
import type { RunEventsStore, StoredRunEvent } from '../spec/store/v1/index.js';

/**
 * The write side of one live run's event log: appends in order (one at a time, so offsets follow
 * the order of updates) and wakes in-process readers after each append.
 */
export class RunEventLog {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly waiters = new Set<() => void>();
  private failure: unknown;

  constructor(
    private readonly store: RunEventsStore,
    readonly runId: string,
  ) {}

  append(events: RunEvent[]): Promise<void> {
    if (events.length === 0) return this.tail.then(() => undefined);
    const next = this.tail.then(async () => {
      if (this.failure) throw this.failure;
      try {
        await this.store.append(this.runId, events);
      } catch (error) {
        this.failure = error;
        throw error;
      } finally {
        for (const wake of [...this.waiters]) wake();
      }
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves at the next append (or after `timeoutMs`). */
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

  flushed(): Promise<void> {
    return this.tail.then(() => undefined);
  }
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
