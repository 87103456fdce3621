import type { EmbeddingModelV1 } from '../../embedding-model/v1/index.js';
import type { LanguageModelV1 } from '../../language-model/v1/index.js';

/** A model choice: `"provider/model"` or `"auto"`, with catalog parameters. */
export interface ModelSelection {
  id: string;
  params?: Array<{ id: string; value: string | number | boolean }>;
}

/** Per-provider settings from `AgentOptions.providers[providerId]`. */
export interface ProviderSettings {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

export interface ModelParameterDefinition {
  id: string;
  description?: string;
  type: 'enum' | 'boolean' | 'number';
  values?: Array<string | number | boolean>;
  default?: string | number | boolean;
}

export interface ModelPricing {
  /** US dollars per million tokens. */
  inputPerMillion: number;
  cachedInputPerMillion?: number;
  cacheWritePerMillion?: number;
  outputPerMillion: number;
}

export interface ModelCatalogEntry {
  /** Model id without the provider prefix. */
  id: string;
  provider: string;
  displayName?: string;
  contextWindow: number;
  maxOutputTokens: number;
  capabilities: { tools: boolean; images: boolean; reasoning: boolean };
  params?: ModelParameterDefinition[];
  aliases?: string[];
  pricing?: ModelPricing;
  /** Capability tier for the `auto` router. */
  tier?: 'fast' | 'balanced' | 'frontier';
  /** Provider-specific hints, e.g. `{ api: 'responses' }` for OpenAI. */
  providerHints?: Record<string, string | number | boolean>;
}

export interface ProviderContext {
  settings: ProviderSettings;
  env: Record<string, string | undefined>;
}

/** A model provider contributed through a plugin. */
export interface ProviderV1 {
  readonly specificationVersion: 'v1';
  readonly id: string;
  readonly name?: string;
  /** Environment variables that hold the API key, for `isConfigured` and error messages. */
  readonly apiKeyEnv?: string[];
  /** Build a model; throws ConfigurationError (naming the fix) when a key or URL is missing. */
  languageModel(modelId: string, context: ProviderContext): LanguageModelV1;
  embeddingModel?(modelId: string, context: ProviderContext): EmbeddingModelV1;
  /** Known models. Unknown ids may still be accepted by `languageModel` (OpenAI-compatible servers). */
  models?(): ModelCatalogEntry[];
  /** True when the provider can be used with these settings (key present, or none needed). */
  isConfigured?(context: ProviderContext): boolean;
}
