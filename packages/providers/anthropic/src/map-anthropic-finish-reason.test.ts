import { describe, expect, it } from 'vitest';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

describe('mapAnthropicFinishReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
  ])('%s -> %s', (raw, unified) => {
    expect(mapAnthropicFinishReason(raw)).toEqual({ unified, raw });
  });

  it('a missing stop reason is other with no raw value', () => {
    expect(mapAnthropicFinishReason(null)).toEqual({ unified: 'other', raw: undefined });
  });
});
