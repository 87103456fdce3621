import { isAbortError, isRetryableStatus, maxRetryAfterMs, ProviderError, parseRetryAfterHeaders } from '@cairn/core';

/** Who failed, for messages that say where and how to fix it. */
export interface OpenAIErrorContext {
  provider: string;
  providerName: string;
  baseURL: string;
  /** What to do when the server cannot be reached (start it, point the base URL to it). */
  unreachableHint: string;
}

export { maxRetryAfterMs };

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined | null;

/**
 * Retry advice from `retry-after-ms` (OpenAI's own, milliseconds) or `retry-after` (seconds or an
 * HTTP date), through core's shared parser. `capped: true` when the provider asked for more than
 * `maxRetryAfterMs`.
 */
export function parseRetryAfter(headers: HeaderSource, now: number = Date.now()): { retryAfterMs?: number; capped: boolean } {
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

/** The first `code` on the cause chain (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, ...). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) current = errors[0];
    else current = (current as { cause?: unknown }).cause;
  }
  return undefined;
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
  if (options.abortSignal?.aborted) return options.abortSignal.reason ?? error;
  if (isAbortError(error)) return error;
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

  const network = networkCode(error);
  if (network === 'ECONNREFUSED' || network === 'ENOTFOUND' || network === 'EAI_AGAIN' || network === 'EHOSTUNREACH') {
    return new ProviderError(`Cannot reach ${context.providerName} at ${context.baseURL} (${network}). ${context.unreachableHint}`, {
      provider: context.provider,
      isRetryable: true,
      endpoint,
      responseStarted,
      cause: error,
      code: 'provider_unreachable',
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  const isConnectionError =
    network !== undefined || /connection|terminated|socket|timed out|network/i.test(message) || (isSdkApiError(error) && error.status === undefined);
  return new ProviderError(
    `${context.providerName} ${responseStarted ? 'stream broke off' : 'request failed'}: ${message}${network ? ` (${network})` : ''}`,
    {
      provider: context.provider,
      isRetryable: isConnectionError,
      endpoint,
      responseStarted,
      cause: error,
      code: isConnectionError ? 'provider_connection_error' : 'provider_error',
    },
  );
}
