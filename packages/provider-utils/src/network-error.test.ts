import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { classifyNetworkError, retryableNetworkCodes } from './network-error.js';
import { unresolvableBaseURL } from './testing.js';

async function fetchFailure(url: string): Promise<unknown> {
  return fetch(url).then(
    async (response) => {
      await response.text();
      throw new Error(`expected ${url} to fail, got ${response.status}`);
    },
    (error: unknown) => error,
  );
}

function coded(code: string, message = `connect ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyNetworkError on real transport failures', () => {
  it('a host that does not resolve is unreachable and retryable', async () => {
    const failure = classifyNetworkError(await fetchFailure(`${unresolvableBaseURL}/v1`));
    // ENOTFOUND with a resolver, EAI_AGAIN in a sandbox without one: the rule retries both.
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(failure?.code);
    expect(failure).toMatchObject({ unreachable: true, isRetryable: true });
    expect(failure?.detail).toContain('cairn-no-such-host.invalid');
  });

  it('a refused connection is unreachable and retryable', async () => {
    const server = await startFixtureServer([]);
    await server.close();
    expect(classifyNetworkError(await fetchFailure(server.url))).toMatchObject({ code: 'ECONNREFUSED', unreachable: true, isRetryable: true });
  });

  it('a body cut by the server is a dropped connection, retryable', async () => {
    const file = fixtureResponse('openai-chat/stream-text-usage.sse');
    const server = await startFixtureServer([{ ...file, dropAfterBytes: 200, chunkSize: 50, chunkDelayMs: 1 }]);
    try {
      const response = await fetch(server.url);
      const error = await response.text().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(classifyNetworkError(error)).toMatchObject({ unreachable: false, isRetryable: true });
    } finally {
      await server.close();
    }
  });
});

describe('classifyNetworkError, the rule', () => {
  it.each(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'])('%s: unreachable, retryable', (code) => {
    expect(classifyNetworkError(new TypeError('fetch failed', { cause: coded(code) }))).toMatchObject({ code, unreachable: true, isRetryable: true });
  });

  it.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])(
    '%s: a dropped connection, retryable',
    (code) => {
      expect(classifyNetworkError(new TypeError('terminated', { cause: coded(code) }))).toMatchObject({ code, unreachable: false, isRetryable: true });
    },
  );

  it('a code decides alone: a certificate error behind "fetch failed" is not retryable', () => {
    const error = new TypeError('fetch failed', { cause: coded('CERT_HAS_EXPIRED', 'certificate has expired') });
    expect(classifyNetworkError(error)).toEqual({ code: 'CERT_HAS_EXPIRED', unreachable: false, isRetryable: false, detail: 'certificate has expired' });
    expect(classifyNetworkError(new TypeError('fetch failed', { cause: coded('UND_ERR_INVALID_ARG') }))?.isRetryable).toBe(false);
  });

  it('looks through SDK wrappers and AggregateErrors (several addresses tried)', () => {
    const aggregate = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed');
    const sdk = Object.assign(new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: aggregate }) }), { name: 'APIConnectionError' });
    expect(classifyNetworkError(sdk)).toMatchObject({ code: 'ECONNREFUSED', unreachable: true, isRetryable: true });
  });

  it('without a code, the SDK connection errors and undici messages still count', () => {
    expect(classifyNetworkError(Object.assign(new Error('Request timed out.'), { name: 'APIConnectionTimeoutError' }))).toMatchObject({ isRetryable: true, unreachable: false });
    expect(classifyNetworkError(new TypeError('terminated'))).toMatchObject({ isRetryable: true, detail: 'terminated' });
    expect(classifyNetworkError(new Error('socket hang up'))).toMatchObject({ isRetryable: true });
  });

  it('is not a transport failure: API error codes, parse errors, strings', () => {
    expect(classifyNetworkError(Object.assign(new Error('quota'), { code: 'insufficient_quota' }))).toBeUndefined();
    expect(classifyNetworkError(new SyntaxError('Unexpected token < in JSON'))).toBeUndefined();
    expect(classifyNetworkError('boom')).toBeUndefined();
  });

  it('lists exactly the codes it retries', () => {
    expect([...retryableNetworkCodes].sort()).toMatchInlineSnapshot(`
      [
        "EAI_AGAIN",
        "ECONNABORTED",
        "ECONNREFUSED",
        "ECONNRESET",
        "EHOSTDOWN",
        "EHOSTUNREACH",
        "ENETDOWN",
        "ENETUNREACH",
        "ENOTFOUND",
        "EPIPE",
        "ERR_STREAM_PREMATURE_CLOSE",
        "ESOCKETTIMEDOUT",
        "ETIMEDOUT",
        "UND_ERR_BODY_TIMEOUT",
        "UND_ERR_CLOSED",
        "UND_ERR_CONNECT_TIMEOUT",
        "UND_ERR_HEADERS_TIMEOUT",
        "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
        "UND_ERR_SOCKET",
      ]
    `);
  });
});

describe('classifyNetworkError on SDK connection errors without a cause', () => {
  it('recognises an error class named APIConnectionError even when its name is left as "Error"', () => {
    class APIConnectionError extends Error {}
    expect(classifyNetworkError(new APIConnectionError('Something went wrong.'))).toMatchObject({ isRetryable: true, unreachable: false });
  });
});
