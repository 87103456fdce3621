import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads retry-after-ms first, then retry-after seconds or an HTTP date', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toEqual({ retryAfterMs: 250 });
    expect(parseRetryAfter({ 'Retry-After': '7' }, now)).toEqual({ retryAfterMs: 7000 });
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toEqual({ retryAfterMs: 30_000 });
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toEqual({ retryAfterMs: 1500 });
  });
  it('caps absurd waits and keeps the requested value', () => {
    expect(parseRetryAfter({ 'retry-after': '3600' }, now)).toEqual({ retryAfterMs: 600_000, requestedMs: 3_600_000 });
    expect(parseRetryAfter({ 'retry-after': '300' }, now)).toEqual({ retryAfterMs: 300_000 });
  });
  it('ignores garbage and absence', () => {
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
