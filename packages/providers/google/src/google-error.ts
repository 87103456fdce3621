import { isRetryableStatus, ProviderError } from '@cairn/core/errors';
import { maxRetryAfterMs, networkProviderError } from '@cairn/provider-utils';

/** Longest wait passed on as retry advice: core's shared cap; the runtime's policy decides. */
export const MAX_RETRY_AFTER_MS = maxRetryAfterMs;

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: Array<{ '@type'?: string; reason?: string; retryDelay?: string; [key: string]: unknown }> };
}

export interface GoogleErrorContext {
  responseStarted?: boolean;
  /** The base URL the request went to, for the error's `endpoint`. */
  endpoint?: string;
}

/** Context overflows get one code across providers, so the runtime can compact instead of failing. */
function isContextOverflow(status: number, detail: string): boolean {
  return status === 413 || (status === 400 && /input token count.*exceeds|exceeds the maximum number of tokens|context window/i.test(detail));
}

/** `@google/genai` puts the response body, as JSON text, into the ApiError message. */
function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as GoogleErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** RetryInfo `retryDelay` ("30s", "1.5s") in milliseconds, capped. */
function retryDelayOf(body: GoogleErrorBody | undefined): { retryAfterMs?: number; note: string } {
  const delay = body?.error?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  const seconds = typeof delay === 'string' ? Number.parseFloat(delay) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds < 0) return { note: '' };
  const milliseconds = Math.round(seconds * 1000);
  if (milliseconds <= MAX_RETRY_AFTER_MS) return { retryAfterMs: milliseconds, note: '' };
  return { retryAfterMs: MAX_RETRY_AFTER_MS, note: ` (Gemini asked to wait ${Math.round(seconds)} s; capped at ${MAX_RETRY_AFTER_MS / 1000} s)` };
}

function fixHint(status: number | undefined, reasons: string[]): string {
  if (reasons.includes('API_KEY_INVALID') || status === 401) return ' Check GEMINI_API_KEY (or GOOGLE_API_KEY) or pass providers.google.apiKey.';
  if (reasons.includes('SERVICE_DISABLED')) return ' Enable the Generative Language API for the key’s project, or use a key from Google AI Studio.';
  if (status === 403) return ' The key has no access to this model or API; check the key in Google AI Studio.';
  if (status === 404) return ' Check the model id (see the provider catalog).';
  return '';
}

/**
 * Any failure of a Gemini call as a ProviderError with retry advice. Callers check `isAbortError`
 * first and rethrow aborts unwrapped.
 */
export function toGoogleProviderError(error: unknown, context: GoogleErrorContext = {}): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const responseStarted = context.responseStarted ?? false;
  const status = (error as { status?: unknown } | undefined)?.status;
  if (error instanceof Error && error.name === 'ApiError' && typeof status === 'number') {
    const body = parseBody(error.message);
    const reasons = (body?.error?.details ?? []).flatMap((detail) => (typeof detail.reason === 'string' ? [detail.reason] : []));
    const statusName = body?.error?.status;
    const detail = body?.error?.message ?? error.message;
    const retry = retryDelayOf(body);
    const label = ['Gemini API error', status, statusName ? `(${[statusName, ...reasons].join(', ')})` : undefined].filter((piece) => piece !== undefined).join(' ');
    const sentence = /[.!?]$/.test(detail) ? detail : `${detail}.`;
    return new ProviderError(`${label}: ${sentence}${fixHint(status, reasons)}${retry.note}`, {
      provider: 'google',
      status,
      body: body ?? error.message,
      isRetryable: isRetryableStatus(status),
      retryAfterMs: retry.retryAfterMs,
      responseStarted,
      endpoint: context.endpoint,
      code: isContextOverflow(status, detail) ? 'context_length_exceeded' : (reasons[0] ?? statusName ?? 'provider_error'),
      cause: error,
    });
  }
  const network = networkProviderError(error, {
    provider: 'google',
    providerName: 'Gemini',
    endpoint: context.endpoint,
    unreachableHint: 'Check the network connection, or fix GEMINI_BASE_URL / providers.google.baseURL.',
    responseStarted,
  });
  if (network) return network;
  const reason = error instanceof Error ? error.message : String(error);
  return new ProviderError(`Gemini request failed: ${reason}`, { provider: 'google', isRetryable: false, responseStarted, endpoint: context.endpoint, cause: error });
}
