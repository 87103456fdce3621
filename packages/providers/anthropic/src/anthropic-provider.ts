import type Anthropic from '@anthropic-ai/sdk';
import { ConfigurationError, type LanguageModelV1, type ModelCatalogEntry, type ProviderContext, type ProviderSettings, type ProviderV1 } from '@cairn/core';
import { AnthropicLanguageModel } from './anthropic-language-model.js';
import { anthropicModels, findAnthropicModel } from './anthropic-models.js';

export interface AnthropicProviderSettings extends ProviderSettings {
  /** API key; else `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** Base URL (for proxies and gateways); else `ANTHROPIC_BASE_URL`, else the SDK's default. */
  baseURL?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A ready `@anthropic-ai/sdk` client; when given, the key, base URL and retry settings are its own. */
  client?: Anthropic;
  /** A fetch implementation for the SDK client we build. */
  fetch?: typeof globalThis.fetch;
}

export interface AnthropicProvider extends ProviderV1 {
  readonly id: 'anthropic';
  languageModel(modelId: string, context?: ProviderContext): LanguageModelV1;
  models(): ModelCatalogEntry[];
  isConfigured(context?: ProviderContext): boolean;
}

const apiKeyEnv = ['ANTHROPIC_API_KEY'];

function resolveSettings(defaults: AnthropicProviderSettings, context: ProviderContext | undefined): AnthropicProviderSettings & { env: Record<string, string | undefined> } {
  const env = context?.env ?? process.env;
  const settings = { ...defaults, ...(context?.settings ?? {}) } as AnthropicProviderSettings;
  return {
    ...settings,
    apiKey: settings.apiKey ?? env.ANTHROPIC_API_KEY,
    baseURL: settings.baseURL ?? (env.ANTHROPIC_BASE_URL || undefined),
    headers: defaults.headers || context?.settings.headers ? { ...(defaults.headers ?? {}), ...(context?.settings.headers ?? {}) } : undefined,
    env,
  };
}

/** The Anthropic provider: Claude models through the Messages API on the official SDK. */
export function createAnthropic(settings: AnthropicProviderSettings = {}): AnthropicProvider {
  return {
    specificationVersion: 'v1',
    id: 'anthropic',
    name: 'Anthropic',
    apiKeyEnv,
    languageModel(modelId: string, context?: ProviderContext): LanguageModelV1 {
      const resolved = resolveSettings(settings, context);
      if (!resolved.client && !resolved.apiKey) {
        throw new ConfigurationError('Anthropic API key missing: set ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.', { operation: 'languageModel' });
      }
      return new AnthropicLanguageModel(modelId, {
        client: resolved.client,
        apiKey: resolved.apiKey,
        baseURL: resolved.baseURL,
        headers: resolved.headers,
        fetch: resolved.fetch,
        catalogEntry: findAnthropicModel(modelId),
      });
    },
    models: () => anthropicModels.map((entry) => ({ ...entry })),
    isConfigured(context?: ProviderContext): boolean {
      const resolved = resolveSettings(settings, context);
      return Boolean(resolved.client || resolved.apiKey);
    },
  };
}

/** The default instance: reads `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` when a model is built. */
export const anthropic: AnthropicProvider = createAnthropic();
