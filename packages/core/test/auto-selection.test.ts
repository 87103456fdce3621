import { describe, expect, it } from 'vitest';
import type { ModelCatalogEntry, ProviderV1 } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { scriptedModel } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';

const entry = (id: string, tier: ModelCatalogEntry['tier'], input: number): ModelCatalogEntry => ({
  id, provider: 'acme', contextWindow: 100_000, maxOutputTokens: 8_000, tier,
  capabilities: { tools: true, images: false, reasoning: false }, pricing: { inputPerMillion: input, outputPerMillion: input * 4 },
});
const provider: ProviderV1 = {
  specificationVersion: 'v1', id: 'acme',
  languageModel: (modelId) => scriptedModel([{ text: `answered by ${modelId}` }], { provider: 'acme', modelId, repeatLast: true }),
  models: () => [entry('acme-mini', 'fast', 0.1), entry('acme-mid', 'balanced', 1), entry('acme-max', 'frontier', 10)],
  isConfigured: () => true,
};

describe('auto model through Agent', () => {
  it('passes optimize_for to the router and reports the chosen model on the run', async () => {
    const { Agent } = createCairn({ plugins: [{ name: 'acme', providers: [provider] }] });
    const cwd = await tempWorkspace();
    const picks: Record<string, string> = {};
    for (const value of ['cost', 'balanced', 'intelligence']) {
      const agent = await Agent.create({ model: { id: 'auto', params: [{ id: 'optimize_for', value }] }, local: { cwd } });
      const result = await (await agent.send('hi')).wait();
      picks[value] = result.model?.id ?? '';
    }
    expect(picks).toEqual({ cost: 'acme/acme-mini', balanced: 'acme/acme-mid', intelligence: 'acme/acme-max' });
  });
});
