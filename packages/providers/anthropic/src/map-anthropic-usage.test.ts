import { describe, expect, it } from 'vitest';
import { mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';

describe('mapAnthropicUsage', () => {
  it('total input = input + cache read + cache write; thinking tokens split out of output', () => {
    const usage = mapAnthropicUsage(
      mergeAnthropicUsage(
        { input_tokens: 10, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 1 },
        { output_tokens: 300, input_tokens: null, output_tokens_details: { thinking_tokens: 120 } },
      ),
    );
    expect(usage.inputTokens).toEqual({ total: 1210, noCache: 10, cacheRead: 1000, cacheWrite: 200 });
    expect(usage.outputTokens).toEqual({ total: 300, text: 180, reasoning: 120 });
  });
  it('no usage: every figure undefined', () => {
    expect(mapAnthropicUsage(undefined).inputTokens.total).toBeUndefined();
  });
});
