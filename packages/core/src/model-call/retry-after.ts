/**
 * Longest wait passed on as retry advice: providers sometimes ask for hours; the runtime's retry
 * policy decides what to do with long waits (it surfaces them instead of waiting).
 */
export const maxRetryAfterMs = 10 * 60 * 1000;

export interface RetryAfterAdvice {
  /** The wait in milliseconds, capped at maxRetryAfterMs. */
  retryAfterMs: number;
  /** The uncapped wait when it was capped, so a message can say so. */
  requestedMs?: number;
}

export type RetryAfterHeaders = { get(name: string): string | null | undefined } | Record<string, string | string[] | undefined> | null | undefined;

function readHeader(headers: RetryAfterHeaders, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null | undefined }).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * Retry advice from `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date),
 * capped so an absurd value cannot park a run for hours. Shared by every provider adapter.
 */
export function parseRetryAfterHeaders(headers: RetryAfterHeaders, now: number = Date.now()): RetryAfterAdvice | undefined {
  let milliseconds: number | undefined;
  const retryAfterMs = readHeader(headers, 'retry-after-ms');
  if (retryAfterMs !== undefined && retryAfterMs.trim() !== '' && Number.isFinite(Number(retryAfterMs))) {
    milliseconds = Number(retryAfterMs);
  } else {
    const retryAfter = readHeader(headers, 'retry-after')?.trim();
    if (retryAfter) {
      if (/^\d+(\.\d+)?$/.test(retryAfter)) milliseconds = Number(retryAfter) * 1000;
      else {
        const date = Date.parse(retryAfter);
        if (!Number.isNaN(date)) milliseconds = Math.max(0, date - now);
      }
    }
  }
  if (milliseconds === undefined || milliseconds < 0) return undefined;
  if (milliseconds > maxRetryAfterMs) return { retryAfterMs: maxRetryAfterMs, requestedMs: milliseconds };
  return { retryAfterMs: Math.round(milliseconds) };
}

/** The note appended to an error message when the provider's wait was capped. */
export function retryAfterNote(advice: RetryAfterAdvice | undefined): string {
  if (!advice?.requestedMs) return '';
  return ` (the provider asked to wait ${Math.round(advice.requestedMs / 1000)} s; capped at ${maxRetryAfterMs / 1000} s)`;
}
