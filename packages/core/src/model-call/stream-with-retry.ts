import { CairnError, isAbortError, ProviderError } from '../spec/errors/index.js';
import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';
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
    const attemptController = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, attemptController.signal]) : attemptController.signal;
    let started = false;
    let failure: unknown;
    let idle = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const armWatchdog = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        attemptController.abort(new ProviderError(`The ${model.provider} stream sent nothing for ${Math.round(policy.idleTimeoutMs / 1000)} s; the request was aborted.`, { provider: model.provider, code: 'stream_idle', isRetryable: true }));
      }, policy.idleTimeoutMs);
    };
    try {
      armWatchdog();
      const result = await model.doStream({ ...callOptions, abortSignal: signal });
      // Pull parts with a race against the attempt's signal: a stream that ignores its signal
      // (or a socket that never closes) cannot hold the run hostage past the watchdog.
      const iterator = result.stream[Symbol.asyncIterator]();
      for (;;) {
        const next = await nextOrAbort(iterator, signal);
        if (next.done) break;
        const part = next.value;
        armWatchdog();
        if (part.type === 'error') {
          failure = part.error;
          break;
        }
        if (contentParts.has(part.type)) started = true;
        yield part;
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      failure = idle ? attemptController.signal.reason : error;
      if (!idle && isAbortError(error)) throw error;
    } finally {
      if (timer) clearTimeout(timer);
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

async function nextOrAbort<T>(iterator: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      void iterator.return?.().catch(() => undefined);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([iterator.next(), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
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
