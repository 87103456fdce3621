import { isRetryableStatus, ProviderError } from '@cairn/core/errors';
import { networkProviderError, parseRetryAfterHeaders, retryAfterNote } from '@cairn/provider-utils';

/** The shape of `@anthropic-ai/sdk`'s APIError that we read (duck-typed: the SDK is loaded lazily). */
interface AnthropicApiErrorLike {
  status?: number;
  headers?: { get(name: string): string | null };
  error?: unknown;
  requestID?: string | null;
  type?: string | null;
  apiMessage?: string | null;
  message: string;
  name: string;
}

/** In-stream `event: error` bodies have no HTTP status; the error type tells what it would have been. */
const statusOfErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export interface AnthropicErrorContext {
  /** True when content had already been streamed before the failure. */
  responseStarted?: boolean;
  requestId?: string;
  /** The base URL the request went to, for the error's `endpoint`. */
  endpoint?: string;
}

/** Context overflows get one code across providers, so the runtime can compact instead of failing. */
function isContextOverflow(status: number | undefined, type: string | undefined, detail: string): boolean {
  if (status === 413 || type === 'request_too_large') return true;
  return status === 400 && /prompt is too long|context window|exceeds? the (model's )?(maximum )?context/i.test(detail);
}

/**
 * An answer of the API: an HTTP error (a status) or an `event: error` inside the stream (a body, no
 * status). The SDK's connection and abort errors have the same fields, all unset.
 */
function isApiError(error: unknown): error is AnthropicApiErrorLike {
  if (!(error instanceof Error) || !('headers' in error)) return false;
  const { status, error: body } = error as AnthropicApiErrorLike;
  return status !== undefined || body !== undefined;
}

function bodyErrorType(body: unknown): string | undefined {
  const type = (body as { error?: { type?: unknown } } | undefined)?.error?.type;
  return typeof type === 'string' ? type : undefined;
}

function bodyMessage(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

/** What the user can do about it, for the errors a user can fix. */
function fixHint(status: number | undefined): string {
  if (status === 401) return ' Check ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.';
  if (status === 403) return ' The key has no access to this model or feature; check the key and workspace in the Anthropic console.';
  if (status === 404) return ' Check the model id (see the provider catalog).';
  return '';
}

/**
 * Any failure of an Anthropic call as a ProviderError with retry advice. Aborts are returned as they
 * are: callers must check `isAbortError` first and rethrow (an abort is never wrapped).
 */
export function toAnthropicProviderError(error: unknown, context: AnthropicErrorContext = {}): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const responseStarted = context.responseStarted ?? false;
  if (isApiError(error)) {
    const body = error.error;
    const type = error.type ?? bodyErrorType(body);
    const status = error.status ?? (type ? statusOfErrorType[type] : undefined);
    const headers = error.headers;
    const shouldRetry = headers?.get('x-should-retry');
    // The API's own verdict wins over the status table when it sends one.
    const isRetryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(status);
    const advice = parseRetryAfterHeaders(headers);
    const requestId = error.requestID ?? (body as { request_id?: string } | undefined)?.request_id ?? context.requestId;
    const detail = error.apiMessage ?? bodyMessage(body) ?? error.message;
    const label = ['Anthropic API error', status, type ? `(${type})` : undefined, error.status === undefined ? 'during the stream' : undefined]
      .filter((piece) => piece !== undefined)
      .join(' ');
    const sentence = /[.!?]$/.test(detail) ? detail : `${detail}.`;
    return new ProviderError(`${label}: ${sentence}${fixHint(status)}${retryAfterNote(advice)}`, {
      provider: 'anthropic',
      status,
      body,
      isRetryable,
      retryAfterMs: advice?.retryAfterMs,
      requestId: requestId ?? undefined,
      responseStarted,
      endpoint: context.endpoint,
      code: isContextOverflow(status, type ?? undefined, detail) ? 'context_length_exceeded' : (type ?? 'provider_error'),
      cause: error,
    });
  }
  const network = networkProviderError(error, {
    provider: 'anthropic',
    providerName: 'Anthropic',
    endpoint: context.endpoint,
    unreachableHint: 'Check the network connection, or fix ANTHROPIC_BASE_URL / providers.anthropic.baseURL.',
    responseStarted,
    requestId: context.requestId,
  });
  if (network) return network;
  const reason = error instanceof Error ? error.message : String(error);
  return new ProviderError(`Anthropic request failed: ${reason}`, {
    provider: 'anthropic',
    isRetryable: false,
    responseStarted,
    requestId: context.requestId,
    endpoint: context.endpoint,
    cause: error,
  });
}
