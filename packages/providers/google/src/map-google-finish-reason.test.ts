import { describe, expect, it } from 'vitest';
import { mapGoogleFinishReason } from './map-google-finish-reason.js';

describe('mapGoogleFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool-calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content-filter'],
    ['RECITATION', false, 'content-filter'],
    ['PROHIBITED_CONTENT', false, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['LANGUAGE', false, 'other'],
    ['OTHER', false, 'other'],
  ] as const)('%s (tool calls: %s) -> %s', (raw, hasToolCalls, unified) => {
    expect(mapGoogleFinishReason(raw, hasToolCalls)).toEqual({ unified, raw });
  });

  it('a blocked prompt is a content filter with the block reason as raw', () => {
    expect(mapGoogleFinishReason(undefined, false, 'SAFETY')).toEqual({ unified: 'content-filter', raw: 'SAFETY' });
  });
});
