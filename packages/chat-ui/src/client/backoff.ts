/** Reconnect delays: 250 ms, 500 ms, 1 s, 2 s, then 4 s until a connection delivers an event again. */
export class Backoff {
  private next: number;

  constructor(
    private readonly minMs = 250,
    private readonly maxMs = 4000,
  ) {
    this.next = minMs;
  }

  /** The delay to wait now; the one after it doubles, up to the maximum. */
  take(): number {
    const delay = this.next;
    this.next = Math.min(this.next * 2, this.maxMs);
    return delay;
  }

  reset(): void {
    this.next = this.minMs;
  }
}

/** Wait `ms`, or less when the signal aborts (then resolve, not reject: the caller checks the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
