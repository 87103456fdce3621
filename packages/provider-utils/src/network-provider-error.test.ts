import { ProviderError } from '@cairn/core/errors';
import { describe, expect, it } from 'vitest';
import { networkProviderError } from './network-provider-error.js';

const context = { provider: 'ollama', providerName: 'Ollama', endpoint: 'http://localhost:11434/v1', unreachableHint: 'Start Ollama (`ollama serve`).' };

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('networkProviderError', () => {
  it('an unreachable server: the address, the code and the fix; refused on this machine, it is not retried', () => {
    const cause = new TypeError('fetch failed', { cause: coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:11434') });
    const error = networkProviderError(cause, context);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([error?.message, error?.code, error?.isRetryable, error?.endpoint, error?.cause]).toEqual([
      'Cannot reach Ollama at http://localhost:11434/v1 (ECONNREFUSED). Start Ollama (`ollama serve`).',
      'provider_unreachable',
      false,
      'http://localhost:11434/v1',
      cause,
    ]);
  });

  it('a connection cut mid-stream: the most specific message, responseStarted and the request id kept', () => {
    const cause = new TypeError('terminated', { cause: coded('UND_ERR_SOCKET', 'other side closed') });
    const error = networkProviderError(cause, { ...context, responseStarted: true, requestId: 'req_1' });
    expect([error?.message, error?.code, error?.isRetryable, error?.responseStarted, error?.requestId]).toEqual([
      'Ollama stream broke off: other side closed (UND_ERR_SOCKET)',
      'provider_connection_error',
      true,
      true,
      'req_1',
    ]);
  });

  it('a transport failure the rule does not retry keeps the generic code; anything else is not its business', () => {
    const error = networkProviderError(new TypeError('fetch failed', { cause: coded('CERT_HAS_EXPIRED', 'certificate has expired') }), context);
    expect([error?.message, error?.code, error?.isRetryable]).toEqual(['Ollama connection failed: certificate has expired (CERT_HAS_EXPIRED)', 'provider_error', false]);
    expect(networkProviderError(new SyntaxError('bad JSON'), context)).toBeUndefined();
  });

  it('leaves the address out when the endpoint is unknown (an injected client)', () => {
    const error = networkProviderError(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND x.invalid'), { provider: 'google', providerName: 'Gemini' });
    expect(error?.message).toBe('Cannot reach Gemini (ENOTFOUND).');
  });

  it('retries a refused connection to a remote host and a resolver that is briefly down, not a name that does not exist', () => {
    const refused = new TypeError('fetch failed', { cause: coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:443') });
    const retryable = (cause: Error, endpoint: string) => networkProviderError(cause, { ...context, endpoint })?.isRetryable;
    expect(retryable(refused, 'https://llm.example.com/v1')).toBe(true);
    for (const local of ['http://127.0.0.1:8080/v1', 'http://[::1]:8080/v1', 'http://localhost:1234/v1', 'http://127.0.1.1:9/v1']) expect(retryable(refused, local)).toBe(false);
    expect(retryable(coded('EAI_AGAIN', 'getaddrinfo EAI_AGAIN llm.example.com'), 'https://llm.example.com/v1')).toBe(true);
    const missing = networkProviderError(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND llm.exmaple.com'), { ...context, endpoint: 'https://llm.exmaple.com/v1' });
    expect([missing?.code, missing?.isRetryable]).toEqual(['provider_unreachable', false]);
  });
});
