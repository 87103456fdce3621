import type { GoogleGenAI } from '@google/genai';
import { ConfigurationError } from '@cairn/core/errors';
import type { EmbeddingModelV1, LanguageModelV1, ModelCatalogEntry, ProviderContext, ProviderSettings, ProviderV1 } from '@cairn/core/spec';
import { asFetch, asInstance, asNumber, headersSetting, resolveSetting, settingLayers, stringSetting } from '@cairn/provider-utils';
import { GoogleEmbeddingModel } from './google-embedding-model.js';
import { GoogleLanguageModel } from './google-language-model.js';
import { findGoogleModel, googleEmbeddingModels, googleModels } from './google-models.js';

export interface GoogleProviderSettings extends ProviderSettings {
  /** API key (`providers.google.apiKey` wins over this); else `GOOGLE_API_KEY`, else `GEMINI_API_KEY` (the SDK's own order). */
  apiKey?: string;
  /** Base URL for proxies and gateways (`providers.google.baseURL` wins); else `GEMINI_BASE_URL`, else `GOOGLE_GEMINI_BASE_URL`. */
  baseURL?: string;
  headers?: Record<string, string>;
  /** API version, e.g. `v1beta` (the SDK's default) or `v1`. */
  apiVersion?: string;
  /** A ready `@google/genai` client; when given, its key, base URL and retry options are its own. */
  client?: GoogleGenAI;
  fetch?: typeof globalThis.fetch;
  /** For embedding models: `outputDimensionality` and `taskType`. */
  embeddingDimensions?: number;
  embeddingTaskType?: string;
}

export interface GoogleProvider extends ProviderV1 {
  readonly id: 'google';
  languageModel(modelId: string, context?: ProviderContext): LanguageModelV1;
  embeddingModel(modelId: string, context?: ProviderContext): EmbeddingModelV1;
  models(): ModelCatalogEntry[];
  isConfigured(context?: ProviderContext): boolean;
}

const apiKeyEnv = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'];

const asGoogleClient = asInstance<GoogleGenAI>('a GoogleGenAI client (new GoogleGenAI({...}))', (value) => typeof value === 'object' && value !== null && 'models' in value);

/** Per-agent settings (`providers.google`) win over the factory's, which win over env. */
function resolveSettings(factory: GoogleProviderSettings, context: ProviderContext | undefined): GoogleProviderSettings {
  const layers = settingLayers('google', factory, context);
  return {
    client: resolveSetting(layers, 'client', asGoogleClient),
    // The SDK's own order of the two key variables.
    apiKey: stringSetting(layers, 'apiKey', ['GOOGLE_API_KEY', 'GEMINI_API_KEY']),
    baseURL: stringSetting(layers, 'baseURL', ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL']),
    headers: headersSetting(layers),
    apiVersion: stringSetting(layers, 'apiVersion'),
    fetch: resolveSetting(layers, 'fetch', asFetch),
    embeddingDimensions: resolveSetting(layers, 'embeddingDimensions', asNumber),
    embeddingTaskType: stringSetting(layers, 'embeddingTaskType'),
  };
}

function requireKey(settings: GoogleProviderSettings, operation: string): void {
  if (!settings.client && !settings.apiKey) {
    throw new ConfigurationError('Gemini API key missing: set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass providers.google.apiKey.', { operation });
  }
}

function clientConfig(settings: GoogleProviderSettings) {
  return { client: settings.client, apiKey: settings.apiKey, baseURL: settings.baseURL, headers: settings.headers, apiVersion: settings.apiVersion, fetch: settings.fetch };
}

/** The Google provider: Gemini models and embeddings through the Gemini Developer API. */
export function createGoogle(settings: GoogleProviderSettings = {}): GoogleProvider {
  return {
    specificationVersion: 'v1',
    id: 'google',
    name: 'Google Gemini',
    apiKeyEnv,
    languageModel(modelId: string, context?: ProviderContext): LanguageModelV1 {
      const resolved = resolveSettings(settings, context);
      requireKey(resolved, 'languageModel');
      return new GoogleLanguageModel(modelId, { ...clientConfig(resolved), catalogEntry: findGoogleModel(modelId) });
    },
    embeddingModel(modelId: string, context?: ProviderContext): EmbeddingModelV1 {
      const resolved = resolveSettings(settings, context);
      requireKey(resolved, 'embeddingModel');
      const known = googleEmbeddingModels.find((entry) => entry.id === modelId);
      return new GoogleEmbeddingModel(modelId, {
        ...clientConfig(resolved),
        dimensions: known?.dimensions,
        outputDimensionality: resolved.embeddingDimensions,
        taskType: resolved.embeddingTaskType,
      });
    },
    models: () => googleModels.map((entry) => ({ ...entry })),
    isConfigured(context?: ProviderContext): boolean {
      const resolved = resolveSettings(settings, context);
      return Boolean(resolved.client || resolved.apiKey);
    },
  };
}

/** The default instance: reads GEMINI_API_KEY / GOOGLE_API_KEY and GEMINI_BASE_URL when a model is built. */
export const google: GoogleProvider = createGoogle();
