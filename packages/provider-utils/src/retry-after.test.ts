import { describe, expect, it } from 'vitest';
import { maxRetryAfterMs, parseRetryAfterHeaders, retryAfterNote } from './index.js';

describe('parseRetryAfterHeaders (re-exported from core for providers)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads retry-after-ms first, then retry-after seconds or an HTTP date', () => {
    expect(parseRetryAfterHeaders({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toEqual({ retryAfterMs: 250 });
    expect(parseRetryAfterHeaders({ 'Retry-After': '7' }, now)).toEqual({ retryAfterMs: 7000 });
    expect(parseRetryAfterHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toEqual({ retryAfterMs: 30_000 });
    expect(parseRetryAfterHeaders(new Headers({ 'retry-after': '1.5' }), now)).toEqual({ retryAfterMs: 1500 });
  });
  it('caps absurd waits, keeps the requested value, and says so', () => {
    const advice = parseRetryAfterHeaders({ 'retry-after': '3600' }, now);
    expect(advice).toEqual({ retryAfterMs: maxRetryAfterMs, requestedMs: 3_600_000 });
    expect(retryAfterNote(advice)).toBe(' (the provider asked to wait 3600 s; capped at 600 s)');
    expect(parseRetryAfterHeaders({ 'retry-after': '300' }, now)).toEqual({ retryAfterMs: 300_000 });
  });
  it('ignores garbage and absence', () => {
    expect(parseRetryAfterHeaders({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterHeaders({}, now)).toBeUndefined();
    expect(parseRetryAfterHeaders(undefined, now)).toBeUndefined();
  });
});
