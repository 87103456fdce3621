import type { EmbeddingModelV1 } from '../../embedding-model/v1/index.js';
import type { LanguageModelV1 } from '../../language-model/v1/index.js';

/**
 * One parameter of a model selection. Values are strings, as `Cairn.models.list()` lists them
 * (`"high"`, `"true"`, `"2048"`); the runtime parses them by the catalog parameter's type.
 */
export interface ModelParameterValue {
  id: string;
  value: string;
}

/**
 * A model choice: `"provider/model"`, a catalog id or alias without the provider (`"gpt-5.2"`), or
 * the router (`"auto-smart"`, `"auto"`), with catalog parameters.
 */
export interface ModelSelection {
  id: string;
  params?: ModelParameterValue[];
}

/** Per-provider settings from `AgentOptions.providers[providerId]`. */
export interface ProviderSettings {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * A parameter a catalog model takes. `Cairn.models.list()` lists it as a `ModelParameterDefinition`:
 * an enum's values, `"false"`/`"true"` for a boolean, a number's values when it has a list.
 */
export interface CatalogParameterDefinition {
  id: string;
  /** Shown in model pickers, e.g. "Reasoning effort". */
  displayName?: string;
  description?: string;
  type: 'enum' | 'boolean' | 'number';
  values?: Array<string | number | boolean>;
  /** Display names of values, by the value as a string, e.g. `{ cost: 'Cost' }`. */
  valueDisplayNames?: Record<string, string>;
  /** What applies when the selection leaves the parameter out (the provider's own default). */
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
  params?: CatalogParameterDefinition[];
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
