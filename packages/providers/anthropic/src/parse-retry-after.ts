/**
 * Longest wait we pass on as retry advice (the same cap as the OpenAI provider): providers
 * sometimes ask for hours; the runtime's retry policy decides what to do with long waits.
 */
export const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

export interface RetryAfterAdvice {
  /** The wait in milliseconds, capped at MAX_RETRY_AFTER_MS. */
  retryAfterMs: number;
  /** The uncapped wait when it was capped, so the message can say so. */
  requestedMs?: number;
}

type HeaderSource = { get(name: string): string | null | undefined } | Record<string, string | string[] | undefined> | undefined;

function readHeader(headers: HeaderSource, name: string): string | undefined {
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
 * capped so an absurd value cannot park a run for hours. `now` is injectable for tests.
 */
export function parseRetryAfter(headers: HeaderSource, now: number = Date.now()): RetryAfterAdvice | undefined {
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
  if (milliseconds > MAX_RETRY_AFTER_MS) return { retryAfterMs: MAX_RETRY_AFTER_MS, requestedMs: milliseconds };
  return { retryAfterMs: Math.round(milliseconds) };
}

/** The note appended to an error message when the provider's wait was capped. */
export function retryAfterNote(advice: RetryAfterAdvice | undefined): string {
  if (!advice?.requestedMs) return '';
  return ` (the provider asked to wait ${Math.round(advice.requestedMs / 1000)} s; capped at ${MAX_RETRY_AFTER_MS / 1000} s)`;
}
