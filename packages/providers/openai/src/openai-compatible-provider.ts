import { ConfigurationError, type LanguageModelV1, type ModelCatalogEntry, type ProviderContext, type ProviderV1 } from '@cairn/core';
import type OpenAI from 'openai';
import type { OpenAIModelConfig } from './openai-client.js';
import { OpenAIChatLanguageModel } from './openai-chat-language-model.js';
import { OpenAIEmbeddingModel } from './openai-embedding-model.js';
import { createClientCache, defaultProviderContext, headerSettings, injectedClient, stringSetting, withoutTrailingSlash } from './provider-context.js';

export interface OpenAICompatibleProviderSettings {
  /** Provider id, the prefix of model ids (`ollama/qwen3`). */
  id: string;
  name?: string;
  /** Default base URL, e.g. `http://localhost:8000/v1`. */
  baseURL: string;
  /** An environment variable that overrides `baseURL` (e.g. OLLAMA_BASE_URL). */
  baseURLEnv?: string;
  apiKey?: string;
  /** The environment variable holding the key; when given, a missing key is a ConfigurationError. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  client?: OpenAI;
  /** Send `prompt_cache_key`. Default false: strict servers reject unknown fields. */
  promptCacheKey?: boolean;
  /** What to tell the user when the server cannot be reached. */
  unreachableHint?: string;
  /** Models to list in the catalog; any other id is accepted too. */
  models?: ModelCatalogEntry[];
}

export interface OpenAICompatibleProvider extends ProviderV1 {
  languageModel(modelId: string, context?: ProviderContext): LanguageModelV1;
  embeddingModel(modelId: string, context?: ProviderContext): OpenAIEmbeddingModel;
  models(): ModelCatalogEntry[];
  isConfigured(context?: ProviderContext): boolean;
}

/**
 * Any server that speaks OpenAI's Chat Completions (Ollama, vLLM, LM Studio, llama.cpp server,
 * OpenRouter). It gets the standard fields only, and any model id the server has is accepted.
 */
export function createOpenAICompatible(settings: OpenAICompatibleProviderSettings): OpenAICompatibleProvider {
  const clientFor = createClientCache();
  const name = settings.name ?? settings.id;

  function resolve(context: ProviderContext) {
    const contextSettings = context.settings ?? {};
    const env = context.env ?? {};
    const baseURL = withoutTrailingSlash(
      stringSetting(contextSettings.baseURL, settings.baseURLEnv ? env[settings.baseURLEnv] : undefined, settings.baseURL) ?? settings.baseURL,
    );
    const apiKey = stringSetting(settings.apiKey, contextSettings.apiKey, settings.apiKeyEnv ? env[settings.apiKeyEnv] : undefined);
    const client = injectedClient(settings.client, contextSettings.client);
    return { contextSettings, baseURL, apiKey, client };
  }

  function modelConfig(context: ProviderContext): OpenAIModelConfig {
    const { contextSettings, baseURL, apiKey, client } = resolve(context);
    if (!apiKey && settings.apiKeyEnv && !client) {
      throw new ConfigurationError(`${name} API key is missing: set ${settings.apiKeyEnv} or pass providers.${settings.id}.apiKey.`, { code: 'missing_api_key' });
    }
    const urlHint = settings.baseURLEnv ? `${settings.baseURLEnv} or providers.${settings.id}.baseURL` : `providers.${settings.id}.baseURL`;
    return {
      provider: settings.id,
      isOpenAI: false,
      sendPromptCacheKey: settings.promptCacheKey ?? (contextSettings.promptCacheKey as boolean | undefined) ?? false,
      reasoningSummary: false,
      errorContext: {
        provider: settings.id,
        providerName: name,
        baseURL,
        unreachableHint: settings.unreachableHint ?? `Start the server, or point ${urlHint} to its address.`,
      },
      getClient: clientFor({
        // The SDK insists on a key; servers without auth ignore this placeholder.
        apiKey: apiKey ?? 'no-key-needed',
        baseURL,
        headers: headerSettings(settings.headers, contextSettings.headers),
        // Never leak OPENAI_ORG_ID / OPENAI_PROJECT_ID to a third-party server.
        organization: null,
        project: null,
        client,
      }),
    };
  }

  return {
    specificationVersion: 'v1',
    id: settings.id,
    name,
    ...(settings.apiKeyEnv ? { apiKeyEnv: [settings.apiKeyEnv] } : {}),
    languageModel(modelId, context = defaultProviderContext()) {
      return new OpenAIChatLanguageModel(modelId, modelConfig(context));
    },
    embeddingModel(modelId, context = defaultProviderContext()) {
      return new OpenAIEmbeddingModel(modelId, modelConfig(context));
    },
    models: () => (settings.models ?? []).map((entry) => ({ ...entry, provider: settings.id })),
    isConfigured(context = defaultProviderContext()) {
      const { apiKey, client } = resolve(context);
      return Boolean(apiKey || client || !settings.apiKeyEnv);
    },
  };
}

export const ollamaDefaultBaseURL = 'http://localhost:11434/v1';

/** Ollama's OpenAI-compatible endpoint (OLLAMA_BASE_URL or http://localhost:11434/v1), no key. */
export const ollama: OpenAICompatibleProvider = createOpenAICompatible({
  id: 'ollama',
  name: 'Ollama',
  baseURL: ollamaDefaultBaseURL,
  baseURLEnv: 'OLLAMA_BASE_URL',
  unreachableHint: 'Start Ollama (`ollama serve`), or point OLLAMA_BASE_URL or providers.ollama.baseURL to it.',
});
