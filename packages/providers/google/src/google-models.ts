import type { CatalogParameterDefinition, ModelCatalogEntry } from '@cairn/core/spec';

function effortParameter(values: string[], note: string): CatalogParameterDefinition {
  return { id: 'reasoning_effort', displayName: 'Reasoning effort', description: `Thinking effort (${note}).`, type: 'enum', values };
}

const capabilities = { tools: true, images: true, reasoning: true };

/**
 * Known Gemini models (Gemini Developer API). Prices are US dollars per million tokens for prompts
 * up to 200k tokens, from ai.google.dev/gemini-api/docs/pricing as best known when written (cached
 * input = context-cache read price; Gemini has no cache-write charge, only storage); check them
 * before relying on costs. `providerHints.thinking` says whether the model takes a thinking level
 * (Gemini 3) or a token budget (Gemini 2.5).
 */
export const googleModels: ModelCatalogEntry[] = [
  {
    id: 'gemini-3-pro-preview',
    provider: 'google',
    displayName: 'Gemini 3 Pro (preview)',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities,
    params: [effortParameter(['low', 'high'], 'a thinking level; minimal and low map to LOW, medium and high to HIGH')],
    pricing: { inputPerMillion: 2, cachedInputPerMillion: 0.2, outputPerMillion: 12 },
    tier: 'frontier',
    providerHints: { thinking: 'level', thinkingLevels: 'LOW,HIGH' },
  },
  {
    id: 'gemini-3-flash-preview',
    provider: 'google',
    displayName: 'Gemini 3 Flash (preview)',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities,
    params: [effortParameter(['minimal', 'low', 'medium', 'high'], 'a thinking level')],
    pricing: { inputPerMillion: 0.5, cachedInputPerMillion: 0.05, outputPerMillion: 3 },
    tier: 'balanced',
    providerHints: { thinking: 'level', thinkingLevels: 'MINIMAL,LOW,MEDIUM,HIGH' },
  },
  {
    id: 'gemini-2.5-pro',
    provider: 'google',
    displayName: 'Gemini 2.5 Pro',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities,
    params: [effortParameter(['minimal', 'low', 'medium', 'high'], 'a thinking budget; 2.5 Pro cannot turn thinking off')],
    pricing: { inputPerMillion: 1.25, cachedInputPerMillion: 0.125, outputPerMillion: 10 },
    tier: 'frontier',
    providerHints: { thinking: 'budget', maxThinkingBudget: 32_768, minThinkingBudget: 128 },
  },
  {
    id: 'gemini-2.5-flash',
    provider: 'google',
    displayName: 'Gemini 2.5 Flash',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities,
    params: [effortParameter(['off', 'minimal', 'low', 'medium', 'high'], 'a thinking budget; off sets it to 0')],
    pricing: { inputPerMillion: 0.3, cachedInputPerMillion: 0.03, outputPerMillion: 2.5 },
    tier: 'balanced',
    providerHints: { thinking: 'budget', maxThinkingBudget: 24_576, minThinkingBudget: 0 },
  },
  {
    id: 'gemini-2.5-flash-lite',
    provider: 'google',
    displayName: 'Gemini 2.5 Flash-Lite',
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities,
    params: [effortParameter(['off', 'minimal', 'low', 'medium', 'high'], 'a thinking budget; thinking is off unless asked for')],
    pricing: { inputPerMillion: 0.1, cachedInputPerMillion: 0.01, outputPerMillion: 0.4 },
    tier: 'fast',
    providerHints: { thinking: 'budget', maxThinkingBudget: 24_576, minThinkingBudget: 0 },
  },
  {
    id: 'gemini-2.0-flash',
    provider: 'google',
    displayName: 'Gemini 2.0 Flash',
    contextWindow: 1_048_576,
    maxOutputTokens: 8_192,
    capabilities: { tools: true, images: true, reasoning: false },
    aliases: ['gemini-2.0-flash-001'],
    pricing: { inputPerMillion: 0.1, cachedInputPerMillion: 0.025, outputPerMillion: 0.4 },
    tier: 'fast',
  },
];

/** Embedding models: vector length and price (US dollars per million input tokens). */
export const googleEmbeddingModels = [
  { id: 'gemini-embedding-001', dimensions: 3072, inputPerMillion: 0.15 },
  { id: 'text-embedding-004', dimensions: 768, inputPerMillion: 0 },
] as const;

export function findGoogleModel(modelId: string): ModelCatalogEntry | undefined {
  const id = modelId.replace(/^models\//, '');
  return googleModels.find((entry) => entry.id === id || entry.aliases?.includes(id));
}
