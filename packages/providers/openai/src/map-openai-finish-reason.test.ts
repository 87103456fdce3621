import { describe, expect, it } from 'vitest';
import { mapOpenAIChatFinishReason, mapOpenAIResponsesFinishReason } from './map-openai-finish-reason.js';

describe('mapOpenAIChatFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['content_filter', 'content-filter'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['eos', 'other'],
  ] as const)('%s -> %s, keeping the raw value', (raw, unified) => {
    expect(mapOpenAIChatFinishReason(raw)).toEqual({ unified, raw });
  });

  it('maps a missing reason to other with raw undefined', () => {
    expect(mapOpenAIChatFinishReason(null)).toEqual({ unified: 'other', raw: undefined });
  });
});

describe('mapOpenAIResponsesFinishReason', () => {
  it('completed is stop, or tool-calls when the response called tools', () => {
    expect(mapOpenAIResponsesFinishReason({ status: 'completed', hasToolCalls: false })).toEqual({ unified: 'stop', raw: 'completed' });
    expect(mapOpenAIResponsesFinishReason({ status: 'completed', hasToolCalls: true })).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('incomplete maps its reason', () => {
    expect(mapOpenAIResponsesFinishReason({ status: 'incomplete', incompleteReason: 'max_output_tokens', hasToolCalls: true })).toEqual({
      unified: 'length',
      raw: 'max_output_tokens',
    });
    expect(mapOpenAIResponsesFinishReason({ status: 'incomplete', incompleteReason: 'content_filter', hasToolCalls: false })).toEqual({
      unified: 'content-filter',
      raw: 'content_filter',
    });
    expect(mapOpenAIResponsesFinishReason({ status: 'incomplete', hasToolCalls: false })).toEqual({ unified: 'other', raw: 'incomplete' });
  });
});
