import { describe, expect, it } from 'vitest';
import { callHeaders, headersToRecord, sdkRequestOptions } from './request-options.js';

describe('sdkRequestOptions', () => {
  it('always turns SDK retries off, and passes the signal and the set headers only', () => {
    const signal = new AbortController().signal;
    expect(sdkRequestOptions({})).toEqual({ maxRetries: 0 });
    expect(sdkRequestOptions({ abortSignal: signal, headers: { 'x-run': 'r1', 'x-unset': undefined } })).toEqual({ maxRetries: 0, signal, headers: { 'x-run': 'r1' } });
    expect(callHeaders({ 'x-unset': undefined })).toBeUndefined();
  });

  it('headersToRecord keeps every response header, lower-cased', () => {
    expect(headersToRecord(new Headers({ 'X-Request-Id': 'req_1', 'content-type': 'text/event-stream' }))).toEqual({ 'x-request-id': 'req_1', 'content-type': 'text/event-stream' });
  });
});
