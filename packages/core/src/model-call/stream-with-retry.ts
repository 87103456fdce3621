import { CairnError, isAbortError, ProviderError } from '../spec/errors/index.js';
import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';
import { linkedAbort } from '../util/linked-abort.js';
import { abortableDelay, defaultRetryPolicy, type RetryPolicy, retryDelayMs } from './retry-policy.js';

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface StreamWithRetryOptions {
  policy?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  /** Called before each wait, so the run can stream a `retry` update. */
  onRetry?: (notice: RetryNotice) => void | Promise<void>;
  random?: () => number;
}

// Parts that mean the response has started: after one of them a retry would replay visible output
// (or, worse, run a tool twice), so failures from then on are surfaced, not retried.
const contentParts = new Set<LanguageModelV1StreamPart['type']>([
  'text-delta', 'reasoning-delta', 'tool-input-start', 'tool-input-delta', 'tool-call', 'reasoning-end',
]);

/**
 * Stream a model call with bounded, jittered retries that honour retry-after, an idle watchdog,
 * and no retry once content has streamed. Failures end the stream with one `error` part; aborts
 * are rethrown untouched.
 */
export async function* streamWithRetry(
  model: LanguageModelV1,
  callOptions: LanguageModelV1CallOptions,
  options: StreamWithRetryOptions = {},
): AsyncGenerator<LanguageModelV1StreamPart> {
  const policy = { ...defaultRetryPolicy, ...options.policy };
  const errors: unknown[] = [];
  for (let attempt = 1; ; attempt++) {
    // The attempt's own controller follows the caller's signal: the watchdog aborts one attempt only.
    const attemptLink = linkedAbort([options.signal]);
    const attemptController = attemptLink.controller;
    const signal = attemptController.signal;
    let started = false;
    let failure: unknown;
    // One timer per attempt, re-armed only when it fires: a part just records when it arrived.
    const watchdog = new IdleWatchdog(policy.idleTimeoutMs, () => {
      attemptController.abort(new ProviderError(`The ${model.provider} stream sent nothing for ${Math.round(policy.idleTimeoutMs / 1000)} s; the request was aborted.`, { provider: model.provider, code: 'stream_idle', isRetryable: true }));
    });
    let parts: AbortableIterator<LanguageModelV1StreamPart> | undefined;
    try {
      const result = await model.doStream({ ...callOptions, abortSignal: signal });
      // Each pull can be cut short by the attempt's signal: a stream that ignores its signal (or a
      // socket that never closes) cannot hold the run hostage past the watchdog.
      parts = new AbortableIterator(result.stream[Symbol.asyncIterator](), signal);
      for (;;) {
        const next = await parts.next();
        if (next.done) break;
        const part = next.value;
        watchdog.touch();
        if (part.type === 'error') {
          failure = part.error;
          break;
        }
        if (contentParts.has(part.type)) started = true;
        yield part;
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      failure = watchdog.fired ? attemptController.signal.reason : error;
      if (!watchdog.fired && isAbortError(error)) throw error;
    } finally {
      watchdog.stop();
      parts?.dispose();
      attemptLink.release();
    }
    if (failure === undefined) return;
    errors.push(failure);
    const advice = retryAdvice(failure);
    const canRetry = !started && advice.retryable && attempt < policy.maxAttempts;
    if (!canRetry || (advice.retryAfterMs ?? 0) > policy.maxRetryAfterMs) {
      yield { type: 'error', error: finalError(failure, { started, attempt, errors, policy, advice }) };
      return;
    }
    const delayMs = retryDelayMs(policy, attempt, advice.retryAfterMs, options.random);
    await options.onRetry?.({ attempt, delayMs, error: failure });
    await abortableDelay(delayMs, options.signal);
  }
}

/**
 * Fires `onIdle` once when `touch` has not been called for `idleMs` (counted from creation). One
 * timer: when it fires early because parts kept arriving, it is set again for the time left.
 */
class IdleWatchdog {
  fired = false;
  private lastActivity = performance.now();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm(idleMs);
  }

  touch(): void {
    this.lastActivity = performance.now();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      const idleFor = performance.now() - this.lastActivity;
      if (idleFor < this.idleMs) return this.arm(this.idleMs - idleFor);
      this.fired = true;
      this.onIdle();
    }, delayMs);
  }
}

/**
 * An iterator whose pending `next()` rejects with the signal's reason when the signal aborts (and
 * the underlying iterator is told to return). One abort listener for the whole stream, not one per part.
 */
class AbortableIterator<T> {
  private rejectPending: ((reason: unknown) => void) | undefined;
  private readonly onAbort = () => {
    void this.iterator.return?.().catch(() => undefined);
    this.rejectPending?.(this.signal.reason);
  };

  constructor(
    private readonly iterator: AsyncIterator<T>,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    return new Promise((resolve, reject) => {
      this.rejectPending = reject;
      this.iterator.next().then(resolve, reject);
    });
  }

  dispose(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.rejectPending = undefined;
  }
}

function retryAdvice(error: unknown): { retryable: boolean; retryAfterMs?: number } {
  if (ProviderError.isInstance(error)) {
    return { retryable: error.isRetryable, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) };
  }
  if (CairnError.isInstance(error)) return { retryable: error.isRetryable };
  // Unknown errors from an adapter (socket resets surfaced raw) are worth one more try.
  return { retryable: true };
}

function finalError(
  error: unknown,
  details: { started: boolean; attempt: number; errors: unknown[]; policy: RetryPolicy; advice: { retryAfterMs?: number } },
): unknown {
  if (!ProviderError.isInstance(error)) return error;
  let message = error.message;
  if (details.started) message = `${message} (the response had already started, so it was not retried)`;
  else if ((details.advice.retryAfterMs ?? 0) > details.policy.maxRetryAfterMs) {
    message = `${message} (the provider asked to wait ${Math.round((details.advice.retryAfterMs ?? 0) / 1000)} s, longer than the ${Math.round(details.policy.maxRetryAfterMs / 1000)} s limit)`;
  } else if (details.attempt > 1) message = `${message} (after ${details.attempt} attempts)`;
  return new ProviderError(message, {
    provider: error.provider,
    code: error.code,
    isRetryable: error.isRetryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    body: error.body,
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    responseStarted: details.started,
    attempts: details.errors,
    cause: error,
  });
}
