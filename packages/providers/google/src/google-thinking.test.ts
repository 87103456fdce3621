import { describe, expect, it } from 'vitest';
import { findGoogleModel } from './google-models.js';
import { resolveGoogleThinking } from './google-thinking.js';

function thinking(modelId: string, effort?: 'minimal' | 'low' | 'medium' | 'high', params?: Record<string, string>) {
  return resolveGoogleThinking(modelId, { prompt: [], reasoningEffort: effort, params }, findGoogleModel(modelId));
}

describe('resolveGoogleThinking', () => {
  it('Gemini 3 Pro takes LOW or HIGH levels', () => {
    expect(thinking('gemini-3-pro-preview', 'minimal').thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'LOW' });
    expect(thinking('gemini-3-pro-preview', 'medium').thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' });
    expect(thinking('gemini-3-flash-preview', 'minimal').thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'MINIMAL' });
  });

  it('Gemini 2.5 takes budgets within the model range', () => {
    expect(thinking('gemini-2.5-pro', 'high').thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });
    expect(thinking('gemini-2.5-flash', undefined, { reasoning_effort: 'off' }).thinkingConfig).toEqual({ thinkingBudget: 0 });
    const pro = thinking('gemini-2.5-pro', undefined, { reasoning_effort: 'off' });
    expect([pro.thinkingConfig?.thinkingBudget, pro.warnings.length]).toEqual([128, 1]);
  });

  it('thought summaries are asked for by default; non-thinking models warn on effort', () => {
    expect(thinking('gemini-2.5-flash').thinkingConfig).toEqual({ includeThoughts: true });
    const flash = thinking('gemini-2.0-flash', 'low');
    expect(flash.thinkingConfig).toBeUndefined();
    expect(flash.warnings).toMatchObject([{ setting: 'reasoningEffort' }]);
  });
});
