import { describe, expect, it } from 'vitest';
import { findAnthropicModel } from './anthropic-models.js';
import { resolveAnthropicTokens } from './anthropic-thinking.js';

const sonnet = findAnthropicModel('claude-sonnet-4-5');

describe('resolveAnthropicTokens', () => {
  it('without effort: max_tokens is the request or a default capped by the model', () => {
    expect(resolveAnthropicTokens({ prompt: [], maxOutputTokens: 1000 }, sonnet)).toEqual({ maxTokens: 1000, warnings: [] });
    expect(resolveAnthropicTokens({ prompt: [] }, sonnet).maxTokens).toBe(32_000);
    expect(resolveAnthropicTokens({ prompt: [] }, undefined).maxTokens).toBe(8_192);
  });

  it('max_tokens always exceeds the thinking budget', () => {
    for (const effort of ['minimal', 'low', 'medium', 'high'] as const) {
      for (const maxOutputTokens of [undefined, 500, 4_000, 64_000]) {
        const tokens = resolveAnthropicTokens({ prompt: [], reasoningEffort: effort, maxOutputTokens }, sonnet);
        const budget = tokens.thinking?.type === 'enabled' ? tokens.thinking.budget_tokens : 0;
        expect(budget).toBeGreaterThanOrEqual(1024);
        expect(tokens.maxTokens).toBeGreaterThan(budget);
        expect(tokens.maxTokens).toBeLessThanOrEqual(64_000);
      }
    }
  });

  it('the catalog parameter wins over reasoningEffort, and "off" turns thinking off', () => {
    expect(resolveAnthropicTokens({ prompt: [], reasoningEffort: 'high', params: { reasoning_effort: 'off' } }, sonnet).thinking).toBeUndefined();
    expect(resolveAnthropicTokens({ prompt: [], params: { reasoning_effort: 'minimal' } }, sonnet).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('a forced tool choice turns thinking off with a warning', () => {
    const tokens = resolveAnthropicTokens({ prompt: [], reasoningEffort: 'low', toolChoice: { type: 'required' } }, sonnet);
    expect(tokens.thinking).toBeUndefined();
    expect(tokens.warnings[0]?.setting).toBe('reasoningEffort');
  });

  it('adaptive thinking sends an effort instead of a budget', () => {
    const tokens = resolveAnthropicTokens({ prompt: [], reasoningEffort: 'minimal', providerOptions: { anthropic: { thinking: 'adaptive' } } }, sonnet);
    expect([tokens.thinking, tokens.effort]).toEqual([{ type: 'adaptive' }, 'low']);
  });

  it('models without reasoning warn', () => {
    const haiku = findAnthropicModel('claude-haiku-4-5')!;
    const tokens = resolveAnthropicTokens({ prompt: [], reasoningEffort: 'low' }, { ...haiku, capabilities: { ...haiku.capabilities, reasoning: false } });
    expect(tokens.thinking).toBeUndefined();
    expect(tokens.warnings).toHaveLength(1);
  });
});
