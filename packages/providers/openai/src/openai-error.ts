import { isAbortError, isRetryableStatus, ProviderError } from '@cairn/core/errors';
import { abortReason, maxRetryAfterMs, networkProviderError, parseRetryAfterHeaders, type RetryAfterHeaders } from '@cairn/provider-utils';

/** Who failed, for messages that say where and how to fix it. */
export interface OpenAIErrorContext {
  provider: string;
  providerName: string;
  baseURL: string;
  /** What to do when the server cannot be reached (start it, point the base URL to it). */
  unreachableHint: string;
}

export { maxRetryAfterMs };

/**
 * Retry advice from `retry-after-ms` (OpenAI's own, milliseconds) or `retry-after` (seconds or an
 * HTTP date), through the shared parser. `capped: true` when the provider asked for more than
 * `maxRetryAfterMs`.
 */
export function parseRetryAfter(headers: RetryAfterHeaders, now: number = Date.now()): { retryAfterMs?: number; capped: boolean } {
  const advice = parseRetryAfterHeaders(headers, now);
  return advice ? { retryAfterMs: advice.retryAfterMs, capped: advice.requestedMs !== undefined } : { capped: false };
}

interface SdkApiErrorShape {
  status?: number;
  headers?: Headers;
  error?: unknown;
  code?: string | null;
  type?: string;
  requestID?: string | null;
  message: string;
}

/** The SDK's `APIError` family, recognised by shape so an injected client from another copy works too. */
function isSdkApiError(error: unknown): error is SdkApiErrorShape & Error {
  return error instanceof Error && 'status' in error && 'headers' in error && 'error' in error && 'requestID' in error;
}

// Error codes where waiting does not help: billing, keys, bad requests.
const permanentCodes = new Set(['insufficient_quota', 'invalid_api_key', 'invalid_request_error', 'context_length_exceeded', 'model_not_found']);

/** The provider's message as a sentence (ending in punctuation), so hints can follow it. */
function apiMessage(body: unknown, fallback: string): string {
  const raw = (body as { message?: unknown } | undefined)?.message;
  const message = (typeof raw === 'string' && raw !== '' ? raw : fallback).trim();
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/**
 * The abort reason when the request was aborted (aborts are never wrapped), otherwise a
 * `ProviderError` with status, body, request id and retry advice.
 */
export function convertOpenAIError(
  error: unknown,
  context: OpenAIErrorContext,
  options: { abortSignal?: AbortSignal | undefined; responseStarted?: boolean } = {},
): unknown {
  if (options.abortSignal?.aborted) return abortReason(options.abortSignal);
  if (isAbortError(error)) return error;
  return toOpenAIProviderError(error, context, options);
}

/** Any failure that is not an abort as a `ProviderError`: HTTP errors, errors inside a 200 stream, transport failures. */
export function toOpenAIProviderError(error: unknown, context: OpenAIErrorContext, options: { responseStarted?: boolean } = {}): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const responseStarted = options.responseStarted ?? false;
  const endpoint = context.baseURL;

  if (isSdkApiError(error) && error.status !== undefined) {
    const status = error.status;
    const body = error.error;
    const code = (body as { code?: unknown } | undefined)?.code;
    const shouldRetry = error.headers?.get('x-should-retry') ?? undefined;
    let isRetryable = isRetryableStatus(status);
    if (typeof code === 'string' && permanentCodes.has(code)) isRetryable = false;
    if (shouldRetry === 'true') isRetryable = true;
    if (shouldRetry === 'false') isRetryable = false;
    const retry = parseRetryAfter(error.headers);
    const advice =
      retry.retryAfterMs === undefined
        ? ''
        : retry.capped
          ? ` The provider asked to retry after more than ${maxRetryAfterMs / 60_000} minutes; capped at ${maxRetryAfterMs / 60_000} minutes.`
          : ` Retry after ${retry.retryAfterMs} ms.`;
    const fix = status === 401 ? ` Check the API key of ${context.providerName}.` : '';
    return new ProviderError(`${context.providerName} request failed with status ${status}: ${apiMessage(body, error.message)}${fix}${advice}`, {
      provider: context.provider,
      status,
      body,
      isRetryable,
      retryAfterMs: retry.retryAfterMs,
      requestId: error.requestID ?? undefined,
      endpoint,
      responseStarted,
      cause: error,
      // 413 means the request was too large: the runtime treats it like a context overflow.
      code: typeof code === 'string' ? code : status === 413 ? 'context_length_exceeded' : 'provider_error',
    });
  }

  if (isSdkApiError(error) && error.headers !== undefined) {
    // An error event inside a 200 stream: there is no status, only the error object.
    const body = error.error;
    const kind = [(body as { type?: unknown })?.type, (body as { code?: unknown })?.code].filter((value) => typeof value === 'string').join(' ');
    const isRetryable = !/insufficient_quota|invalid|not_found|context_length/.test(kind) && /server_error|rate_limit|overloaded|timeout|unavailable/.test(kind);
    return new ProviderError(`${context.providerName} stream failed: ${apiMessage(body, error.message)}`, {
      provider: context.provider,
      body,
      isRetryable,
      requestId: error.requestID ?? undefined,
      endpoint,
      responseStarted,
      cause: error,
      code: (body as { code?: unknown })?.code && typeof (body as { code?: unknown }).code === 'string' ? String((body as { code: string }).code) : 'provider_error',
    });
  }

  const network = networkProviderError(error, {
    provider: context.provider,
    providerName: context.providerName,
    endpoint,
    unreachableHint: context.unreachableHint,
    responseStarted,
  });
  if (network) return network;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${context.providerName} ${responseStarted ? 'stream broke off' : 'request failed'}: ${message}`, {
    provider: context.provider,
    isRetryable: false,
    endpoint,
    responseStarted,
    cause: error,
    code: 'provider_error',
  });
}

/** The in-band error for a stream that ended cleanly before the model finished its answer. */
export function openAIIncompleteStreamError(context: OpenAIErrorContext, responseStarted: boolean): ProviderError {
  return new ProviderError(`${context.providerName} stream ended before the model finished its answer.`, {
    provider: context.provider,
    isRetryable: true,
    responseStarted,
    endpoint: context.baseURL,
    code: 'stream_incomplete',
  });
}
