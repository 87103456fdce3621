import { ProviderError } from '@cairn/core/errors';
import { classifyNetworkError } from './network-error.js';

/** Who failed and where, so the message can say what to do. */
export interface NetworkErrorContext {
  provider: string;
  /** The name users know, e.g. "OpenAI", "Ollama". */
  providerName: string;
  /** The base URL the request went to, when known (an injected client keeps its own). */
  endpoint?: string | undefined;
  /** What to do when nothing answers at the address, e.g. "Start Ollama (`ollama serve`)". */
  unreachableHint?: string | undefined;
  responseStarted?: boolean | undefined;
  requestId?: string | undefined;
}

/**
 * A transport failure as a ProviderError, retryable by the one rule of `classifyNetworkError`, or
 * undefined when the error is not a transport failure. An unreachable server gets
 * `provider_unreachable` and a message naming the address and the fix; a dropped or timed-out
 * connection gets `provider_connection_error`.
 */
export function networkProviderError(error: unknown, context: NetworkErrorContext): ProviderError | undefined {
  const failure = classifyNetworkError(error);
  if (!failure) return undefined;
  const responseStarted = context.responseStarted ?? false;
  const isRetryable = failure.isRetryable && !failsFast(failure.code, context.endpoint);
  const shared = { provider: context.provider, isRetryable, responseStarted, endpoint: context.endpoint, requestId: context.requestId, cause: error };
  if (failure.unreachable) {
    const where = context.endpoint ? ` at ${context.endpoint}` : '';
    const hint = context.unreachableHint ? ` ${context.unreachableHint}` : '';
    return new ProviderError(`Cannot reach ${context.providerName}${where} (${failure.code}).${hint}`, { ...shared, code: 'provider_unreachable' });
  }
  const what = responseStarted ? 'stream broke off' : 'connection failed';
  const code = failure.code && !failure.detail.includes(failure.code) ? ` (${failure.code})` : '';
  return new ProviderError(`${context.providerName} ${what}: ${failure.detail}${code}`, {
    ...shared,
    code: isRetryable ? 'provider_connection_error' : 'provider_error',
  });
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Failures no retry can mend, so the run ends at once instead of after the retry policy's backoff:
 * a name that does not exist (ENOTFOUND: a typo in a base URL; a resolver that is briefly down gives
 * EAI_AGAIN, which stays retryable), and a refused connection to this machine (a local server that
 * is not started will not start during the backoff). A refused connection to a remote host is still
 * retried: a load balancer or a proxy restarting refuses for a moment.
 */
function failsFast(code: string | undefined, endpoint: string | undefined): boolean {
  if (code === 'ENOTFOUND') return true;
  if (code !== 'ECONNREFUSED' || !endpoint) return false;
  try {
    const host = new URL(endpoint).hostname;
    return loopbackHosts.has(host) || host.startsWith('127.');
  } catch {
    return false;
  }
}
