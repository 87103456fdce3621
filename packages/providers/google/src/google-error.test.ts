import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { toGoogleProviderError } from './google-error.js';

describe('toGoogleProviderError', () => {
  it('a too-long prompt gets the shared context_length_exceeded code', () => {
    const body = { error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } };
    const error = toGoogleProviderError(new ApiError({ status: 400, message: JSON.stringify(body) }));
    expect([error.code, error.isRetryable, error.body]).toEqual(['context_length_exceeded', false, body]);
  });

  it('stream error chunks ("got status: ...") parse the same way', () => {
    const error = toGoogleProviderError(new ApiError({ status: 500, message: 'got status: INTERNAL. {"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}' }), { responseStarted: true });
    expect([error.status, error.code, error.isRetryable, error.responseStarted]).toEqual([500, 'INTERNAL', true, true]);
  });

  it('a dropped connection is retryable', () => {
    const error = toGoogleProviderError(new TypeError('terminated'));
    expect([error.code, error.isRetryable]).toEqual(['provider_connection_error', true]);
  });

  it('other failures are not retryable', () => {
    expect(toGoogleProviderError(new Error('Incomplete JSON segment at the end')).isRetryable).toBe(false);
  });
});
