import type Anthropic from '@anthropic-ai/sdk';
import { ConfigurationError } from '@cairn/core/errors';
import type { LanguageModelV1, ModelCatalogEntry, ProviderContext, ProviderSettings, ProviderV1 } from '@cairn/core/spec';
import { asFetch, asInstance, headersSetting, resolveSetting, settingLayers, stringSetting } from '@cairn/provider-utils';
import { AnthropicLanguageModel } from './anthropic-language-model.js';
import { anthropicModels, findAnthropicModel } from './anthropic-models.js';

export interface AnthropicProviderSettings extends ProviderSettings {
  /** API key (`providers.anthropic.apiKey` wins over this); else `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** Base URL for proxies and gateways (`providers.anthropic.baseURL` wins); else `ANTHROPIC_BASE_URL`, else the SDK's default. */
  baseURL?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A ready `@anthropic-ai/sdk` client; when given, the key and base URL are its own (requests still pass `maxRetries: 0`). */
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

const asAnthropicClient = asInstance<Anthropic>(
  'an Anthropic client (new Anthropic({...}))',
  (value) => typeof value === 'object' && value !== null && 'messages' in value,
);

/** Per-agent settings (`providers.anthropic`) win over the factory's, which win over env. */
function resolveSettings(factory: AnthropicProviderSettings, context: ProviderContext | undefined) {
  const layers = settingLayers('anthropic', factory, context);
  return {
    client: resolveSetting(layers, 'client', asAnthropicClient),
    apiKey: stringSetting(layers, 'apiKey', ['ANTHROPIC_API_KEY']),
    baseURL: stringSetting(layers, 'baseURL', ['ANTHROPIC_BASE_URL']),
    headers: headersSetting(layers),
    fetch: resolveSetting(layers, 'fetch', asFetch),
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
      return new AnthropicLanguageModel(modelId, { ...resolved, catalogEntry: findAnthropicModel(modelId) });
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
