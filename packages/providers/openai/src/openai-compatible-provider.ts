import { ConfigurationError } from '@cairn/core/errors';
import type { LanguageModelV1, ModelCatalogEntry, ProviderContext, ProviderV1 } from '@cairn/core/spec';
import { asBoolean, asFetch, headersSetting, resolveSetting, settingLayers, stringSetting } from '@cairn/provider-utils';
import type OpenAI from 'openai';
import type { OpenAIModelConfig } from './openai-client.js';
import { OpenAIChatLanguageModel } from './openai-chat-language-model.js';
import { OpenAIEmbeddingModel } from './openai-embedding-model.js';
import { asOpenAIClient, createClientCache, withoutTrailingSlash } from './provider-context.js';

export interface OpenAICompatibleProviderSettings {
  /** Provider id, the prefix of model ids (`ollama/qwen3`). */
  id: string;
  name?: string;
  /** Default base URL, e.g. `http://localhost:8000/v1`. */
  baseURL: string;
  /** An environment variable that overrides `baseURL` (e.g. OLLAMA_BASE_URL). */
  baseURLEnv?: string;
  /**
   * An environment variable with the server's address without the API path (Ollama's own
   * OLLAMA_HOST: `host:port` or a URL), used after `baseURLEnv`; `apiPath` (`/v1`) is appended.
   */
  hostEnv?: { name: string; apiPath: string; defaultScheme?: string };
  apiKey?: string;
  /** The environment variable holding the key; when given, a missing key is a ConfigurationError. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  client?: OpenAI;
  /** The fetch for the client we build (`providers.<id>.fetch` wins over this). Default in Node: Node's own HTTP client (docs/providers.md, "Transport"). */
  fetch?: typeof globalThis.fetch;
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

  // The factory's overridable settings; `baseURL` is not one of them: it is the server's default
  // address, the last fallback, so `baseURLEnv` (OLLAMA_BASE_URL) overrides it.
  const factorySettings = { apiKey: settings.apiKey, headers: settings.headers, client: settings.client, fetch: settings.fetch, promptCacheKey: settings.promptCacheKey };

  function resolve(context: ProviderContext | undefined) {
    const layers = settingLayers(settings.id, factorySettings, context);
    const baseURL = withoutTrailingSlash(stringSetting(layers, 'baseURL', settings.baseURLEnv ? [settings.baseURLEnv] : []) ?? hostURL(layers.env) ?? settings.baseURL);
    const apiKey = stringSetting(layers, 'apiKey', settings.apiKeyEnv ? [settings.apiKeyEnv] : []);
    const client = resolveSetting(layers, 'client', asOpenAIClient);
    return { layers, baseURL, apiKey, client };
  }

  function hostURL(env: Record<string, string | undefined>): string | undefined {
    const host = settings.hostEnv ? env[settings.hostEnv.name]?.trim() : undefined;
    if (!host || !settings.hostEnv) return undefined;
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `${settings.hostEnv.defaultScheme ?? 'http'}://${host}`;
    return `${withoutTrailingSlash(withScheme)}${settings.hostEnv.apiPath}`;
  }

  function modelConfig(context: ProviderContext | undefined): OpenAIModelConfig {
    const { layers, baseURL, apiKey, client } = resolve(context);
    if (!apiKey && settings.apiKeyEnv && !client) {
      throw new ConfigurationError(`${name} API key is missing: set ${settings.apiKeyEnv} or pass providers.${settings.id}.apiKey.`, { code: 'missing_api_key' });
    }
    const urlHint = settings.baseURLEnv ? `${settings.baseURLEnv} or providers.${settings.id}.baseURL` : `providers.${settings.id}.baseURL`;
    return {
      provider: settings.id,
      isOpenAI: false,
      sendPromptCacheKey: resolveSetting(layers, 'promptCacheKey', asBoolean) ?? false,
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
        headers: headersSetting(layers) ?? {},
        // Never leak OPENAI_ORG_ID / OPENAI_PROJECT_ID to a third-party server.
        organization: null,
        project: null,
        client,
        fetch: resolveSetting(layers, 'fetch', asFetch),
      }),
    };
  }

  return {
    specificationVersion: 'v1',
    id: settings.id,
    name,
    ...(settings.apiKeyEnv ? { apiKeyEnv: [settings.apiKeyEnv] } : {}),
    languageModel(modelId, context) {
      return new OpenAIChatLanguageModel(modelId, modelConfig(context));
    },
    embeddingModel(modelId, context) {
      return new OpenAIEmbeddingModel(modelId, modelConfig(context));
    },
    models: () => (settings.models ?? []).map((entry) => ({ ...entry, provider: settings.id })),
    isConfigured(context) {
      const { apiKey, client } = resolve(context);
      return Boolean(apiKey || client || !settings.apiKeyEnv);
    },
  };
}

export const ollamaDefaultBaseURL = 'http://localhost:11434/v1';

/** Ollama's OpenAI-compatible endpoint (OLLAMA_BASE_URL, else OLLAMA_HOST + `/v1`, else http://localhost:11434/v1), no key. */
export const ollama: OpenAICompatibleProvider = createOpenAICompatible({
  id: 'ollama',
  name: 'Ollama',
  baseURL: ollamaDefaultBaseURL,
  baseURLEnv: 'OLLAMA_BASE_URL',
  hostEnv: { name: 'OLLAMA_HOST', apiPath: '/v1' },
  unreachableHint: 'Start Ollama (`ollama serve`), or point OLLAMA_BASE_URL or providers.ollama.baseURL to it.',
});
