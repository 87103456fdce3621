import { ConfigurationError } from '@cairn/core/errors';
import type { LanguageModelV1, ModelCatalogEntry, ProviderContext, ProviderV1 } from '@cairn/core/spec';
import { asBoolean, asFetch, asOneOf, headersSetting, resolveSetting, type SettingReader, settingLayers, stringSetting } from '@cairn/provider-utils';
import type OpenAI from 'openai';
import type { OpenAIModelConfig } from './openai-client.js';
import { OpenAIChatLanguageModel } from './openai-chat-language-model.js';
import { OpenAIEmbeddingModel } from './openai-embedding-model.js';
import { findOpenAIModel, openAIModels } from './openai-models.js';
import { OpenAIResponsesLanguageModel } from './openai-responses-language-model.js';
import { asOpenAIClient, createClientCache, withoutTrailingSlash } from './provider-context.js';

export type OpenAIApi = 'chat' | 'responses';

export interface OpenAIProviderSettings {
  /** `providers.openai.apiKey` wins over this; OPENAI_API_KEY is the fallback. */
  apiKey?: string;
  /** `providers.openai.baseURL` wins over this; then OPENAI_BASE_URL, then https://api.openai.com/v1. */
  baseURL?: string;
  headers?: Record<string, string>;
  organization?: string;
  project?: string;
  /** One API for every model (`providers.openai.api` wins over this; then OPENAI_API, the catalog hint, `chat`). */
  api?: OpenAIApi;
  /** An `OpenAI` client to use instead of building one (its own settings apply; requests pass `maxRetries: 0`). */
  client?: OpenAI;
  /** The fetch for the client we build (`providers.openai.fetch` wins over this). Default in Node: Node's own HTTP client (docs/providers.md, "Transport"). */
  fetch?: typeof globalThis.fetch;
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

const readApi = asOneOf<OpenAIApi>(['chat', 'responses']);
const readReasoningSummary = asOneOf(['auto', 'concise', 'detailed']);

/** `reasoningSummary` takes `false` (organisations that may not request summaries) besides its three values. */
const asReasoningSummary: SettingReader<OpenAIProviderSettings['reasoningSummary']> = (value, source) =>
  value === false || value === 'false' ? false : readReasoningSummary(value, source);

/** The OpenAI provider: Chat Completions and Responses on the official `openai` SDK. */
export function createOpenAI(settings: OpenAIProviderSettings = {}): OpenAIProvider {
  const clientFor = createClientCache();

  // Per-agent settings (`providers.openai`) win over these factory settings, which win over env.
  function resolve(context: ProviderContext | undefined) {
    const layers = settingLayers('openai', settings, context);
    const baseURL = withoutTrailingSlash(stringSetting(layers, 'baseURL', ['OPENAI_BASE_URL']) ?? openAIDefaultBaseURL);
    const customBaseURL = baseURL !== openAIDefaultBaseURL;
    const client = resolveSetting(layers, 'client', asOpenAIClient);
    const apiKey = stringSetting(layers, 'apiKey', ['OPENAI_API_KEY']);
    return { layers, baseURL, customBaseURL, client, apiKey };
  }

  function modelConfig(modelId: string | undefined, context: ProviderContext | undefined): OpenAIModelConfig & { api: OpenAIApi } {
    const { layers, baseURL, customBaseURL, client, apiKey } = resolve(context);
    // Local and proxy servers behind a custom base URL need no key; the SDK still wants one.
    if (!apiKey && !customBaseURL && !client) {
      throw new ConfigurationError('OpenAI API key is missing: set OPENAI_API_KEY or pass providers.openai.apiKey.', { code: 'missing_api_key' });
    }
    const catalogEntry = modelId === undefined ? undefined : findOpenAIModel(modelId);
    const api = resolveSetting(layers, 'api', readApi, ['OPENAI_API']) ?? readApi(catalogEntry?.providerHints?.api, 'the catalog hint') ?? 'chat';
    return {
      provider: 'openai',
      api,
      catalogEntry,
      isOpenAI: true,
      sendPromptCacheKey: resolveSetting(layers, 'promptCacheKey', asBoolean) ?? true,
      reasoningSummary: resolveSetting(layers, 'reasoningSummary', asReasoningSummary) ?? 'auto',
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
        headers: headersSetting(layers) ?? {},
        organization: stringSetting(layers, 'organization', ['OPENAI_ORG_ID']) ?? null,
        project: stringSetting(layers, 'project', ['OPENAI_PROJECT_ID']) ?? null,
        client,
        fetch: resolveSetting(layers, 'fetch', asFetch),
      }),
    };
  }

  return {
    specificationVersion: 'v1',
    id: 'openai',
    name: 'OpenAI',
    apiKeyEnv: ['OPENAI_API_KEY'],
    languageModel(modelId, context) {
      const config = modelConfig(modelId, context);
      return config.api === 'responses' ? new OpenAIResponsesLanguageModel(modelId, config) : new OpenAIChatLanguageModel(modelId, config);
    },
    embeddingModel(modelId, context) {
      return new OpenAIEmbeddingModel(modelId, modelConfig(undefined, context));
    },
    models: () => openAIModels('openai'),
    isConfigured(context) {
      const { apiKey, customBaseURL, client } = resolve(context);
      return Boolean(apiKey || customBaseURL || client);
    },
  };
}

/** The default OpenAI provider (key from OPENAI_API_KEY or `providers.openai.apiKey`). */
export const openai: OpenAIProvider = createOpenAI();
