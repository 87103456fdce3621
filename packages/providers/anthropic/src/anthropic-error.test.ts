import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { toAnthropicProviderError } from './anthropic-error.js';

function apiError(status: number | undefined, body: unknown, headers: Record<string, string> = {}) {
  return APIError.generate(status, body as object, undefined, status === undefined ? undefined : new Headers(headers));
}

describe('toAnthropicProviderError', () => {
  it('a too-long prompt gets the shared context_length_exceeded code', () => {
    const error = toAnthropicProviderError(apiError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }));
    expect([error.status, error.code, error.isRetryable]).toEqual([400, 'context_length_exceeded', false]);
    expect(toAnthropicProviderError(apiError(413, { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } })).code).toBe('context_length_exceeded');
  });

  it('x-should-retry: true makes a 400 retryable; the endpoint is kept', () => {
    const error = toAnthropicProviderError(apiError(400, { error: { type: 'invalid_request_error', message: 'x' } }, { 'x-should-retry': 'true' }), { endpoint: 'https://api.anthropic.com' });
    expect([error.isRetryable, error.endpoint]).toEqual([true, 'https://api.anthropic.com']);
  });

  it('connection failures are retryable', () => {
    const error = toAnthropicProviderError(new APIConnectionError({ message: 'Connection error.' }), { responseStarted: true });
    expect([error.code, error.isRetryable, error.responseStarted, error.status]).toEqual(['provider_connection_error', true, true, undefined]);
  });

  it('anything else is not retryable and keeps its cause', () => {
    const cause = new SyntaxError('Unexpected token');
    const error = toAnthropicProviderError(cause);
    expect([error.isRetryable, error.cause]).toEqual([false, cause]);
  });
});
