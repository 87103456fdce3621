import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from '@cairn/core';
import { busyError, corruptStoreError } from './store-errors.js';

// busy_timeout already makes SQLite wait for a lock; these retries cover the cases where SQLite
// returns SQLITE_BUSY without waiting (WAL recovery, a snapshot that went stale), bounded so a
// stuck writer surfaces as a retryable CairnError instead of a hang.
const retryDelaysMs = [5, 10, 25, 50, 100, 200, 400, 800];

export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

function isCorruptError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}

function translate(path: string, error: unknown): unknown {
  if (CairnError.isInstance(error)) return error;
  if (isCorruptError(error)) return corruptStoreError(path, (error as Error).message, error);
  return error;
}

/** Runs a synchronous database operation, retrying on SQLITE_BUSY with a growing delay. */
export async function withBusyRetry<T>(path: string, operation: () => T): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return operation();
    } catch (error) {
      if (!isBusyError(error)) throw translate(path, error);
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) throw busyError(path, error);
      await sleep(delay + Math.random() * delay);
    }
  }
}

/** The same for opening, which is synchronous: waits with Atomics.wait between attempts. */
export function withBusyRetrySync<T>(path: string, operation: () => T): T {
  const waiter = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return operation();
    } catch (error) {
      if (!isBusyError(error)) throw translate(path, error);
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) throw busyError(path, error);
      Atomics.wait(waiter, 0, 0, delay + Math.random() * delay);
    }
  }
}
