import type { CatalogParameterDefinition, ModelCatalogEntry } from '@cairn/core/spec';

// Prices are US dollars per million tokens from OpenAI's public pricing page as last known to the
// authors (standard tier); they change, so check https://openai.com/api/pricing before relying on
// them. See docs/providers-openai.md.

function effort(values: string[], defaultValue: string): CatalogParameterDefinition {
  return { id: 'reasoningEffort', displayName: 'Reasoning effort', description: 'How much the model reasons before it answers.', type: 'enum', values, default: defaultValue };
}

const reasoningCapabilities = { tools: true, images: true, reasoning: true };
const plainCapabilities = { tools: true, images: true, reasoning: false };

const entries: Array<Omit<ModelCatalogEntry, 'provider'>> = [
  {
    id: 'gpt-5.2',
    displayName: 'GPT-5.2',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    capabilities: reasoningCapabilities,
    params: [effort(['none', 'low', 'medium', 'high', 'xhigh'], 'medium')],
    aliases: ['gpt-5.2-2025-12-11'],
    pricing: { inputPerMillion: 1.75, cachedInputPerMillion: 0.175, outputPerMillion: 14 },
    tier: 'frontier',
    providerHints: { api: 'responses' },
  },
  {
    id: 'gpt-5.1',
    displayName: 'GPT-5.1',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    capabilities: reasoningCapabilities,
    params: [effort(['none', 'low', 'medium', 'high'], 'none')],
    aliases: ['gpt-5.1-2025-11-13'],
    pricing: { inputPerMillion: 1.25, cachedInputPerMillion: 0.125, outputPerMillion: 10 },
    tier: 'frontier',
    providerHints: { api: 'responses' },
  },
  {
    id: 'gpt-5',
    displayName: 'GPT-5',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    capabilities: reasoningCapabilities,
    params: [effort(['minimal', 'low', 'medium', 'high'], 'medium')],
    aliases: ['gpt-5-2025-08-07'],
    pricing: { inputPerMillion: 1.25, cachedInputPerMillion: 0.125, outputPerMillion: 10 },
    tier: 'frontier',
    providerHints: { api: 'responses' },
  },
  {
    id: 'gpt-5-mini',
    displayName: 'GPT-5 mini',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    capabilities: reasoningCapabilities,
    params: [effort(['minimal', 'low', 'medium', 'high'], 'medium')],
    aliases: ['gpt-5-mini-2025-08-07'],
    pricing: { inputPerMillion: 0.25, cachedInputPerMillion: 0.025, outputPerMillion: 2 },
    tier: 'balanced',
    providerHints: { api: 'responses' },
  },
  {
    id: 'gpt-5-nano',
    displayName: 'GPT-5 nano',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    capabilities: reasoningCapabilities,
    params: [effort(['minimal', 'low', 'medium', 'high'], 'medium')],
    aliases: ['gpt-5-nano-2025-08-07'],
    pricing: { inputPerMillion: 0.05, cachedInputPerMillion: 0.005, outputPerMillion: 0.4 },
    tier: 'fast',
    providerHints: { api: 'responses' },
  },
  {
    id: 'gpt-4.1',
    displayName: 'GPT-4.1',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    capabilities: plainCapabilities,
    aliases: ['gpt-4.1-2025-04-14'],
    pricing: { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
    tier: 'balanced',
    providerHints: { api: 'chat' },
  },
  {
    id: 'gpt-4.1-mini',
    displayName: 'GPT-4.1 mini',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    capabilities: plainCapabilities,
    aliases: ['gpt-4.1-mini-2025-04-14'],
    pricing: { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
    tier: 'fast',
    providerHints: { api: 'chat' },
  },
  {
    id: 'gpt-4o',
    displayName: 'GPT-4o',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    capabilities: plainCapabilities,
    aliases: ['gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'],
    pricing: { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 },
    tier: 'balanced',
    providerHints: { api: 'chat' },
  },
  {
    id: 'gpt-4o-mini',
    displayName: 'GPT-4o mini',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    capabilities: plainCapabilities,
    aliases: ['gpt-4o-mini-2024-07-18'],
    pricing: { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 },
    tier: 'fast',
    providerHints: { api: 'chat' },
  },
  {
    id: 'o3',
    displayName: 'o3',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    capabilities: reasoningCapabilities,
    params: [effort(['low', 'medium', 'high'], 'medium')],
    aliases: ['o3-2025-04-16'],
    pricing: { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
    tier: 'frontier',
    providerHints: { api: 'responses' },
  },
  {
    id: 'o4-mini',
    displayName: 'o4-mini',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    capabilities: reasoningCapabilities,
    params: [effort(['low', 'medium', 'high'], 'medium')],
    aliases: ['o4-mini-2025-04-16'],
    pricing: { inputPerMillion: 1.1, cachedInputPerMillion: 0.275, outputPerMillion: 4.4 },
    tier: 'balanced',
    providerHints: { api: 'responses' },
  },
];

/** The known OpenAI models, with context window, capabilities, reasoning-effort values and prices. */
export function openAIModels(provider = 'openai'): ModelCatalogEntry[] {
  return entries.map((entry) => ({
    ...entry,
    provider,
    ...(entry.params ? { params: entry.params.map((param) => ({ ...param, ...(param.values ? { values: [...param.values] } : {}) })) } : {}),
    ...(entry.aliases ? { aliases: [...entry.aliases] } : {}),
    ...(entry.providerHints ? { providerHints: { ...entry.providerHints } } : {}),
  }));
}

/** The catalog entry for an id or one of its aliases. */
export function findOpenAIModel(modelId: string, catalog: ModelCatalogEntry[] = openAIModels()): ModelCatalogEntry | undefined {
  return catalog.find((entry) => entry.id === modelId || entry.aliases?.includes(modelId));
}
