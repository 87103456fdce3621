import type { LanguageModelV1CallOptions, ModelCatalogEntry } from '@cairn/core/spec';
import { sdkFetch } from '@cairn/provider-utils';
import type OpenAI from 'openai';
import type { OpenAIErrorContext } from './openai-error.js';

export interface OpenAIClientSettings {
  apiKey: string;
  baseURL: string;
  headers: Record<string, string>;
  /** `null` keeps the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID (not for third-party servers). */
  organization: string | null;
  project: string | null;
  /** An injected client is used as is (its own settings win); requests still pass `maxRetries: 0`. */
  client?: OpenAI | undefined;
  /** The SDK client's fetch; without one, Node's own HTTP client in Node (`sdkFetch`), the SDK's default elsewhere. */
  fetch?: typeof globalThis.fetch | undefined;
}

let openAISdk: Promise<typeof import('openai')> | undefined;
/** The `openai` module, imported once per process. */
function loadOpenAISdk(): Promise<typeof import('openai')> {
  openAISdk ??= import('openai');
  return openAISdk;
}

/**
 * A memoised client factory. Importing the provider does not load the `openai` module (a process
 * that never uses OpenAI never pays for it); resolving a model does, in the background, so the
 * load overlaps the agent's set-up (store, workspace scan) instead of delaying the first request.
 * A failed load surfaces at the first request.
 */
export function createLazyOpenAIClient(settings: OpenAIClientSettings): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined = settings.client ? Promise.resolve(settings.client) : undefined;
  if (!client) loadOpenAISdk().catch(() => undefined);
  return () => {
    client ??= Promise.all([loadOpenAISdk(), sdkFetch(settings.fetch, () => import('@cairn/provider-utils/node-http'))]).then(
      ([{ default: OpenAIClient }, fetch]) =>
        new OpenAIClient({
          apiKey: settings.apiKey,
          baseURL: settings.baseURL,
          organization: settings.organization,
          project: settings.project,
          defaultHeaders: settings.headers,
          // The Cairn runtime owns retries; never retry in two layers.
          maxRetries: 0,
          ...(fetch ? { fetch } : {}),
        }),
    );
    return client;
  };
}

/** What a language model of this package needs from its provider. */
export interface OpenAIModelConfig {
  provider: string;
  getClient: () => Promise<OpenAI>;
  errorContext: OpenAIErrorContext;
  catalogEntry?: ModelCatalogEntry | undefined;
  /** True for the real OpenAI API; false for compatible servers, which get only standard fields. */
  isOpenAI: boolean;
  /** Send `prompt_cache_key` (OpenAI only by default; compatible servers may reject unknown fields). */
  sendPromptCacheKey: boolean;
  /** Responses API: ask for reasoning summaries (`reasoning.summary`). */
  reasoningSummary: 'auto' | 'concise' | 'detailed' | false;
}

/** Whether the model reasons: the catalog says so, or the id looks like an OpenAI reasoning model. */
export function isReasoningModel(modelId: string, entry: ModelCatalogEntry | undefined): boolean {
  if (entry) return entry.capabilities.reasoning;
  return /^(o\d|gpt-5)(?!.*-chat)/.test(modelId);
}

/** Reasoning effort from the call, else from the catalog parameter `reasoningEffort`. */
export function requestedReasoningEffort(options: LanguageModelV1CallOptions): string | undefined {
  const fromParams = options.params?.reasoningEffort;
  return options.reasoningEffort ?? (typeof fromParams === 'string' ? fromParams : undefined);
}
