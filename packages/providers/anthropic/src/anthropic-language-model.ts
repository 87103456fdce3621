import type Anthropic from '@anthropic-ai/sdk';
import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamPart, LanguageModelV1StreamResult, ModelCatalogEntry } from '@cairn/core/spec';
import { callProvider, driveProviderStream, headersToRecord, sdkFetch, sdkRequestOptions } from '@cairn/provider-utils';
import { toAnthropicProviderError } from './anthropic-error.js';
import { buildAnthropicRequest } from './anthropic-request.js';
import { type AnthropicStreamEvent, createAnthropicStreamState, finishAnthropicStream, mapAnthropicStreamEvent } from './map-anthropic-stream-event.js';

export interface AnthropicLanguageModelConfig {
  /** An injected client, used as is except that requests pass `maxRetries: 0` (the runtime owns retries). */
  client?: Anthropic;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  catalogEntry?: ModelCatalogEntry;
}

/** Claude through the Messages API, always streaming. */
export class AnthropicLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'anthropic';
  readonly modelId: string;
  readonly #config: AnthropicLanguageModelConfig;
  #client: Promise<Anthropic> | undefined;

  constructor(modelId: string, config: AnthropicLanguageModelConfig) {
    this.modelId = modelId;
    this.#config = config;
  }

  /** Built on first use so that importing a provider does not load the SDK. */
  #getClient(): Promise<Anthropic> {
    if (this.#config.client) return Promise.resolve(this.#config.client);
    // Without a `fetch` setting, Node's own HTTP client in Node (docs/providers.md, "Transport").
    this.#client ??= Promise.all([import('@anthropic-ai/sdk'), sdkFetch(this.#config.fetch, () => import('@cairn/provider-utils/node-http'))]).then(
      ([{ default: AnthropicClient }, fetch]) =>
        new AnthropicClient({
          apiKey: this.#config.apiKey,
          ...(this.#config.baseURL ? { baseURL: this.#config.baseURL } : {}),
          // The runtime owns retries; two layers would multiply attempts.
          maxRetries: 0,
          ...(this.#config.headers ? { defaultHeaders: this.#config.headers } : {}),
          ...(fetch ? { fetch } : {}),
        }),
    );
    return this.#client;
  }

  async doStream(options: LanguageModelV1CallOptions): Promise<LanguageModelV1StreamResult> {
    const { body, warnings } = buildAnthropicRequest(this.modelId, options, this.#config.catalogEntry);
    const client = await this.#getClient();
    const abortSignal = options.abortSignal;
    const endpoint = client.baseURL;
    const result = await callProvider(
      () => client.messages.create(body as unknown as Anthropic.MessageCreateParamsStreaming, sdkRequestOptions(options)).withResponse(),
      { abortSignal, toError: (error) => toAnthropicProviderError(error, { endpoint }) },
    );
    const requestId = result.request_id ?? undefined;
    const state = createAnthropicStreamState();
    let metadataSent = false;
    // The request id comes from the HTTP response, not the events: it joins the first metadata part.
    const withRequestId = (part: LanguageModelV1StreamPart): LanguageModelV1StreamPart => {
      if (metadataSent || part.type !== 'response-metadata' || !requestId) return part;
      metadataSent = true;
      return { ...part, requestId };
    };
    const stream = driveProviderStream<AnthropicStreamEvent>({
      warnings,
      items: () => result.data as unknown as AsyncIterable<AnthropicStreamEvent>,
      map: (event) => mapAnthropicStreamEvent(state, event).map(withRequestId),
      finish: () => finishAnthropicStream(state, requestId),
      toError: (error, { responseStarted }) => toAnthropicProviderError(error, { responseStarted, requestId, endpoint }),
      responseStarted: () => state.contentStarted,
      abortSignal,
    });
    return { stream, request: { body }, response: { headers: headersToRecord(result.response.headers) } };
  }
}
