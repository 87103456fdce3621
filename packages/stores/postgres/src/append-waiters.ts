interface Waiter {
  afterOffset: number;
  resolve: () => void;
}

/** A registered wait: `promise` resolves once (woken, timed out, aborted, or the store closed). */
export interface PendingWait {
  readonly promise: Promise<void>;
  readonly settled: boolean;
  resolve(): void;
}

/** The readers waiting for appends, by run. Every wait resolves; none rejects. */
export class AppendWaiters {
  readonly #byRun = new Map<string, Set<Waiter>>();

  add(runId: string, afterOffset: number, timeoutMs: number, signal?: AbortSignal): PendingWait {
    let settled = false;
    let finish: () => void = () => {};
    const promise = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const waiter: Waiter = { afterOffset, resolve: () => settle() };
    const onAbort = () => settle();
    const timer = setTimeout(() => settle(), timeoutMs);
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const waiters = this.#byRun.get(runId);
      waiters?.delete(waiter);
      if (waiters?.size === 0) this.#byRun.delete(runId);
      finish();
    };
    if (signal?.aborted) settle();
    else {
      signal?.addEventListener('abort', onAbort, { once: true });
      let waiters = this.#byRun.get(runId);
      if (waiters === undefined) this.#byRun.set(runId, (waiters = new Set()));
      waiters.add(waiter);
    }
    return {
      promise,
      get settled() {
        return settled;
      },
      resolve: settle,
    };
  }

  /** The run's log reached `lastOffset`: wake whoever waits for less. */
  wake(runId: string, lastOffset: number): void {
    for (const waiter of [...(this.#byRun.get(runId) ?? [])]) if (waiter.afterOffset < lastOffset) waiter.resolve();
  }

  /** Wake everyone (a reconnect, where notifications may have been missed, or close). */
  wakeAll(): void {
    for (const waiters of [...this.#byRun.values()]) for (const waiter of [...waiters]) waiter.resolve();
  }

  get size(): number {
    let count = 0;
    for (const waiters of this.#byRun.values()) count += waiters.size;
    return count;
  }
}
