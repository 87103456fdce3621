import type { ModelMessage } from '@cairn/core/spec';
import { describe, expect, it } from 'vitest';
import { createMessageCache } from './message-cache.js';

describe('createMessageCache', () => {
  it('converts each message object once, and counts hits and misses', () => {
    const cache = createMessageCache<string>();
    let conversions = 0;
    const convert = (message: ModelMessage) => {
      conversions += 1;
      return `${message.role}:${conversions}`;
    };
    const first: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    const second: ModelMessage = { role: 'system', content: 'rules' };
    expect([cache.get(first, convert), cache.get(second, convert), cache.get(first, convert)]).toEqual(['user:1', 'system:2', 'user:1']);
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });
  });

  it('keys by identity: an equal but new message object (a pruned copy) is converted again', () => {
    const cache = createMessageCache<number>();
    const message: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'hi' }] };
    cache.get(message, () => 1);
    expect(cache.get(structuredClone(message), () => 2)).toBe(2);
  });
});
