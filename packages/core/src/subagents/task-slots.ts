/** Subagents of one parent run that may work at once; later task calls wait, in the order they came. */
export const maxParallelSubagents = 4;

/**
 * A first-in, first-out semaphore: `acquire` resolves when a slot is free, in call order; a call
 * whose signal aborts while it waits leaves the queue and rejects with the signal's reason.
 */
export class TaskSlots {
  private active = 0;
  private readonly waiting: Array<{ start: () => void }> = [];

  constructor(private readonly limit = maxParallelSubagents) {}

  get busy(): boolean {
    return this.active > 0 || this.waiting.length > 0;
  }

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw signal.reason;
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
    return this.releaser();
  }

  /** A slot handed to the next waiter passes directly: `active` stays counted for it. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.start();
      else this.active--;
    };
  }
}
