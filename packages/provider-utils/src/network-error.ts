/** What the transport can tell about a request that got no answer, or lost it half-way. */
export interface NetworkFailure {
  /** The system or undici code on the error's cause chain (`ENOTFOUND`, `UND_ERR_SOCKET`), if any. */
  code?: string;
  /** Nothing answered at the address: the name did not resolve or the connection was refused. */
  unreachable: boolean;
  isRetryable: boolean;
  /** The most specific message on the cause chain (the one that carries the code). */
  detail: string;
}

/**
 * No server answered. All retryable here, by the code alone: EAI_AGAIN is a temporary resolver
 * failure by definition, and ENOTFOUND can be one too. `networkProviderError`, which also knows the
 * address, then fails fast on ENOTFOUND and on a connection refused by this machine (see failsFast).
 */
const unreachableCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/** The connection broke or timed out: a new attempt may well succeed. */
const droppedCodes = new Set([
  'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'ESOCKETTIMEDOUT',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
  // The body ended before its content-length, or a stream before its end: a cut connection.
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Every code the rule retries. Any other code (TLS and certificate errors, invalid URLs, undici's invalid arguments) is not. */
export const retryableNetworkCodes: ReadonlySet<string> = new Set([...unreachableCodes, ...droppedCodes]);

/** Errors without a code that still mean "the transport failed": the SDKs' own wrappers and undici's. */
const transportErrorNames = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);
const transportMessages = /fetch failed|terminated|socket hang up|other side closed|network error|connection (error|reset|closed)/i;

// System-style codes only: API error codes (`insufficient_quota`) are lowercase and mean something else.
const systemCode = /^[A-Z][A-Z0-9_]+$/;

/** The error, its causes and the members of AggregateErrors (Happy Eyeballs tries several addresses), outermost first. */
function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 16) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || chain.includes(current)) continue;
    chain.push(current);
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return chain;
}

/** The error's name; the `openai` SDK leaves `name` as "Error", so its class name counts too. */
function errorName(value: object): string {
  const name = (value as { name?: unknown }).name;
  if (typeof name === 'string' && name !== 'Error') return name;
  return value.constructor?.name ?? '';
}

function messageOf(value: object): string {
  const message = (value as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}

/**
 * The one rule every provider uses to decide whether a transport failure is retryable, or
 * undefined when the error is not a transport failure at all (an HTTP error, a bug). A code on the
 * cause chain decides alone; without one, the SDKs' connection errors and undici's messages for a
 * dropped connection count as retryable. Callers handle aborts and HTTP errors first.
 */
export function classifyNetworkError(error: unknown): NetworkFailure | undefined {
  const chain = causeChain(error);
  for (const link of chain) {
    const code = (link as { code?: unknown }).code;
    if (typeof code !== 'string' || !systemCode.test(code)) continue;
    return { code, unreachable: unreachableCodes.has(code), isRetryable: retryableNetworkCodes.has(code), detail: messageOf(link) || messageOf(chain[0]!) };
  }
  const transport = chain.find((link) => transportErrorNames.has(errorName(link)) || transportMessages.test(messageOf(link)));
  if (!transport) return undefined;
  return { unreachable: false, isRetryable: true, detail: messageOf(chain.at(-1)!) || messageOf(transport) };
}
