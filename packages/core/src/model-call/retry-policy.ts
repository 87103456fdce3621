/** The user's choice of how hard to retry; the facts (retry-after, retryable) come from the error. */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** A provider asking for a longer wait than this is not waited for: the error is surfaced. */
  maxRetryAfterMs: number;
  /** No stream part for this long aborts the attempt (idle-stream watchdog). */
  idleTimeoutMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  idleTimeoutMs: 120_000,
};

/** Full-jitter exponential backoff, raised to the provider's retry-after when it gave one. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + (random() * exponential) / 2;
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
