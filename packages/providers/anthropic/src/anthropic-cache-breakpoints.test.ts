import { describe, expect, it } from 'vitest';
import { applyAnthropicCacheBreakpoints } from './anthropic-cache-breakpoints.js';
import type { AnthropicMessage } from './convert-to-anthropic-messages.js';

function user(text: string): AnthropicMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

describe('applyAnthropicCacheBreakpoints', () => {
  it('marks the last tool, the last system block and the two newest user turns: four at most', () => {
    const request = {
      system: [{}, {}] as Array<{ cache_control?: { type: 'ephemeral' } }>,
      tools: [{}, {}] as Array<{ cache_control?: { type: 'ephemeral' } }>,
      messages: [user('1'), { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a' }] }, user('2'), user('3'), user('4')],
    };
    expect(applyAnthropicCacheBreakpoints(request)).toBe(4);
    expect(request.tools.map((tool) => Boolean(tool.cache_control))).toEqual([false, true]);
    expect(request.system.map((block) => Boolean(block.cache_control))).toEqual([false, true]);
    expect(request.messages.map((message) => Boolean((message.content[0] as { cache_control?: unknown }).cache_control))).toEqual([false, false, false, true, true]);
  });

  it('without tools or system the newest two user turns are marked', () => {
    const request = { system: [], tools: [], messages: [user('1'), user('2'), user('3')] };
    expect(applyAnthropicCacheBreakpoints(request)).toBe(2);
  });
});
