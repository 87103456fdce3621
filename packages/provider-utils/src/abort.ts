import { isAbortError } from '@cairn/core/errors';

/**
 * The error an aborted call surfaces: the signal's reason when it is an error (what
 * `AbortController.abort()` gives is a DOMException named AbortError), else a plain AbortError, so
 * that `isAbortError` recognises it whatever reason the caller passed.
 */
export function abortReason(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Rethrows a failure that is an abort (the call's signal fired, or the SDK reports an abort of its
 * own), unwrapped; returns for any other failure. Aborts are never wrapped in a ProviderError,
 * because the runtime must not retry them.
 */
export function rethrowIfAborted(error: unknown, abortSignal: AbortSignal | undefined): void {
  if (abortSignal?.aborted) throw abortReason(abortSignal);
  if (isAbortError(error)) throw error;
}

/** Throws the abort when the signal fired: the SDKs end a stream's iteration quietly on abort. */
export function throwIfAborted(abortSignal: AbortSignal | undefined): void {
  if (abortSignal?.aborted) throw abortReason(abortSignal);
}
