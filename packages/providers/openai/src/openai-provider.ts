import { ConfigurationError, type LanguageModelV1, type ModelCatalogEntry, type ProviderContext, type ProviderV1 } from '@cairn/core';
import type OpenAI from 'openai';
import type { OpenAIModelConfig } from './openai-client.js';
import { OpenAIChatLanguageModel } from './openai-chat-language-model.js';
import { OpenAIEmbeddingModel } from './openai-embedding-model.js';
import { findOpenAIModel, openAIModels } from './openai-models.js';
import { OpenAIResponsesLanguageModel } from './openai-responses-language-model.js';
import { createClientCache, defaultProviderContext, headerSettings, injectedClient, stringSetting, withoutTrailingSlash } from './provider-context.js';

export type OpenAIApi = 'chat' | 'responses';

export interface OpenAIProviderSettings {
  /** Else `providers.openai.apiKey`, else OPENAI_API_KEY. */
  apiKey?: string;
  /** Else `providers.openai.baseURL`, else OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseURL?: string;
  headers?: Record<string, string>;
  organization?: string;
  project?: string;
  /** Force one API for every model (else `providers.openai.api`, OPENAI_API, the catalog hint, `chat`). */
  api?: OpenAIApi;
  /** An `OpenAI` client to use instead of building one (its own settings apply; requests pass `maxRetries: 0`). */
  client?: OpenAI;
  /** Send `prompt_cache_key` when the call has one. Default true. */
  promptCacheKey?: boolean;
  /** Responses API reasoning summaries. Default `auto`; `false` for organisations that may not request them. */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | false;
}

export interface OpenAIProvider extends ProviderV1 {
  languageModel(modelId: string, context?: ProviderContext): LanguageModelV1;
  embeddingModel(modelId: string, context?: ProviderContext): OpenAIEmbeddingModel;
  models(): ModelCatalogEntry[];
  isConfigured(context?: ProviderContext): boolean;
}

export const openAIDefaultBaseURL = 'https://api.openai.com/v1';

function parseApi(value: unknown, source: string): OpenAIApi | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'chat' || value === 'responses') return value;
  throw new ConfigurationError(`${source} must be "chat" or "responses", got ${JSON.stringify(value)}.`, { code: 'invalid_setting' });
}

/** The OpenAI provider: Chat Completions and Responses on the official `openai` SDK. */
export function createOpenAI(settings: OpenAIProviderSettings = {}): OpenAIProvider {
  const clientFor = createClientCache();

  function resolve(context: ProviderContext) {
    const contextSettings = context.settings ?? {};
    const env = context.env ?? {};
    const configuredBaseURL = stringSetting(settings.baseURL, contextSettings.baseURL, env.OPENAI_BASE_URL);
    const baseURL = withoutTrailingSlash(configuredBaseURL ?? openAIDefaultBaseURL);
    const customBaseURL = baseURL !== openAIDefaultBaseURL;
    const client = injectedClient(settings.client, contextSettings.client);
    const apiKey = stringSetting(settings.apiKey, contextSettings.apiKey, env.OPENAI_API_KEY);
    return { contextSettings, env, baseURL, customBaseURL, client, apiKey };
  }

  function modelConfig(modelId: string | undefined, context: ProviderContext): OpenAIModelConfig & { api: OpenAIApi } {
    const { contextSettings, env, baseURL, customBaseURL, client, apiKey } = resolve(context);
    // Local and proxy servers behind a custom base URL need no key; the SDK still wants one.
    if (!apiKey && !customBaseURL && !client) {
      throw new ConfigurationError('OpenAI API key is missing: set OPENAI_API_KEY or pass providers.openai.apiKey.', { code: 'missing_api_key' });
    }
    const catalogEntry = modelId === undefined ? undefined : findOpenAIModel(modelId);
    const api =
      parseApi(settings.api, 'The openai provider setting "api"') ??
      parseApi(contextSettings.api, 'providers.openai.api') ??
      parseApi(env.OPENAI_API, 'OPENAI_API') ??
      parseApi(catalogEntry?.providerHints?.api, 'the catalog hint') ??
      'chat';
    const reasoningSummary = settings.reasoningSummary ?? (contextSettings.reasoningSummary as OpenAIProviderSettings['reasoningSummary']) ?? 'auto';
    return {
      provider: 'openai',
      api,
      catalogEntry,
      isOpenAI: true,
      sendPromptCacheKey: settings.promptCacheKey ?? (contextSettings.promptCacheKey as boolean | undefined) ?? true,
      reasoningSummary,
      errorContext: {
        provider: 'openai',
        providerName: 'OpenAI',
        baseURL,
        unreachableHint: customBaseURL
          ? 'Check that the server is running, or fix OPENAI_BASE_URL / providers.openai.baseURL.'
          : 'Check the network connection (or set OPENAI_BASE_URL to a reachable proxy).',
      },
      getClient: clientFor({
        apiKey: apiKey ?? 'no-key-needed',
        baseURL,
        headers: headerSettings(settings.headers, contextSettings.headers),
        organization: stringSetting(settings.organization, contextSettings.organization, env.OPENAI_ORG_ID) ?? null,
        project: stringSetting(settings.project, contextSettings.project, env.OPENAI_PROJECT_ID) ?? null,
        client,
      }),
    };
  }

  return {
    specificationVersion: 'v1',
    id: 'openai',
    name: 'OpenAI',
    apiKeyEnv: ['OPENAI_API_KEY'],
    languageModel(modelId, context = defaultProviderContext()) {
      const config = modelConfig(modelId, context);
      return config.api === 'responses' ? new OpenAIResponsesLanguageModel(modelId, config) : new OpenAIChatLanguageModel(modelId, config);
    },
    embeddingModel(modelId, context = defaultProviderContext()) {
      return new OpenAIEmbeddingModel(modelId, modelConfig(undefined, context));
    },
    models: () => openAIModels('openai'),
    isConfigured(context = defaultProviderContext()) {
      const { apiKey, customBaseURL, client } = resolve(context);
      return Boolean(apiKey || customBaseURL || client);
    },
  };
}

/** The default OpenAI provider (key from OPENAI_API_KEY or `providers.openai.apiKey`). */
export const openai: OpenAIProvider = createOpenAI();
