import { describe, expect, it } from 'vitest';
import { maxRetryAfterMs, parseRetryAfter } from './openai-error.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '20' }, now)).toEqual({ retryAfterMs: 1500, capped: false });
  });
  it('reads seconds and HTTP dates from retry-after', () => {
    expect(parseRetryAfter(new Headers({ 'Retry-After': '7' }), now)).toEqual({ retryAfterMs: 7000, capped: false });
    expect(parseRetryAfter({ 'Retry-After': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toEqual({ retryAfterMs: 30_000, capped: false });
  });
  it('caps absurd values and says it did', () => {
    expect(parseRetryAfter({ 'retry-after': '999999' }, now)).toEqual({ retryAfterMs: maxRetryAfterMs, capped: true });
  });
  it('returns nothing for missing or garbage values', () => {
    expect(parseRetryAfter(undefined, now)).toEqual({ capped: false });
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toEqual({ capped: false });
  });
});
