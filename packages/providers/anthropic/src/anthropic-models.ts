import type { CatalogParameterDefinition, ModelCatalogEntry } from '@cairn/core/spec';

/** Reasoning effort as a catalog parameter; mapped to an extended-thinking budget. */
const reasoningEffortParameter: CatalogParameterDefinition = {
  id: 'reasoning_effort',
  displayName: 'Reasoning effort',
  description: 'Extended thinking: off, or a thinking budget from minimal (1,024 tokens) to high (32,000 tokens).',
  type: 'enum',
  values: ['off', 'minimal', 'low', 'medium', 'high'],
  default: 'off',
};

const capabilities = { tools: true, images: true, reasoning: true };

/**
 * Known Anthropic models. Prices are US dollars per million tokens from anthropic.com/pricing as
 * best known when written (cached input = cache read at 0.1x input, cache write = 5-minute write at
 * 1.25x input); check them before relying on costs. Dated ids are the canonical ids, the short
 * names are the API's aliases.
 */
export const anthropicModels: ModelCatalogEntry[] = [
  {
    id: 'claude-opus-4-5-20251101',
    provider: 'anthropic',
    displayName: 'Claude Opus 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-opus-4-5'],
    pricing: { inputPerMillion: 5, cachedInputPerMillion: 0.5, cacheWritePerMillion: 6.25, outputPerMillion: 25 },
    tier: 'frontier',
    // End-of-life date from the SDK's deprecated-models table (@anthropic-ai/sdk 1.14.0).
    providerHints: { endOfLife: '2027-01-22' },
  },
  {
    id: 'claude-sonnet-4-5-20250929',
    provider: 'anthropic',
    displayName: 'Claude Sonnet 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-sonnet-4-5'],
    pricing: { inputPerMillion: 3, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, outputPerMillion: 15 },
    tier: 'balanced',
    providerHints: { endOfLife: '2026-11-30' },
  },
  {
    id: 'claude-haiku-4-5-20251001',
    provider: 'anthropic',
    displayName: 'Claude Haiku 4.5',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-haiku-4-5'],
    pricing: { inputPerMillion: 1, cachedInputPerMillion: 0.1, cacheWritePerMillion: 1.25, outputPerMillion: 5 },
    tier: 'fast',
  },
  {
    id: 'claude-opus-4-1-20250805',
    provider: 'anthropic',
    displayName: 'Claude Opus 4.1',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-opus-4-1'],
    pricing: { inputPerMillion: 15, cachedInputPerMillion: 1.5, cacheWritePerMillion: 18.75, outputPerMillion: 75 },
    tier: 'frontier',
  },
  {
    id: 'claude-opus-4-20250514',
    provider: 'anthropic',
    displayName: 'Claude Opus 4',
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-opus-4-0'],
    pricing: { inputPerMillion: 15, cachedInputPerMillion: 1.5, cacheWritePerMillion: 18.75, outputPerMillion: 75 },
    tier: 'frontier',
  },
  {
    id: 'claude-sonnet-4-20250514',
    provider: 'anthropic',
    displayName: 'Claude Sonnet 4',
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities,
    params: [reasoningEffortParameter],
    aliases: ['claude-sonnet-4-0'],
    pricing: { inputPerMillion: 3, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, outputPerMillion: 15 },
    tier: 'balanced',
  },
];

/** The catalog entry for an id or alias, if the model is known. */
export function findAnthropicModel(modelId: string): ModelCatalogEntry | undefined {
  return anthropicModels.find((entry) => entry.id === modelId || entry.aliases?.includes(modelId));
}
