import type Anthropic from '@anthropic-ai/sdk';
import { isAbortError, type LanguageModelV1, type LanguageModelV1CallOptions, type LanguageModelV1StreamPart, type LanguageModelV1StreamResult, type ModelCatalogEntry } from '@cairn/core';
import { toAnthropicProviderError } from './anthropic-error.js';
import { buildAnthropicRequest } from './anthropic-request.js';
import { type AnthropicStreamEvent, createAnthropicStreamState, finishAnthropicStream, mapAnthropicStreamEvent } from './map-anthropic-stream-event.js';

export interface AnthropicLanguageModelConfig {
  /** An injected client, used as is (its retry setting is the caller's). */
  client?: Anthropic;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  catalogEntry?: ModelCatalogEntry;
}

/** The reason of an aborted signal as the error to throw: aborts surface unwrapped. */
function abortError(signal: AbortSignal): unknown {
  if (signal.reason instanceof Error) return signal.reason;
  return new DOMException('The operation was aborted.', 'AbortError');
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
    this.#client ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicClient }) =>
        new AnthropicClient({
          apiKey: this.#config.apiKey,
          ...(this.#config.baseURL ? { baseURL: this.#config.baseURL } : {}),
          // The runtime owns retries; two layers would multiply attempts.
          maxRetries: 0,
          ...(this.#config.headers ? { defaultHeaders: this.#config.headers } : {}),
          ...(this.#config.fetch ? { fetch: this.#config.fetch } : {}),
        }),
    );
    return this.#client;
  }

  async doStream(options: LanguageModelV1CallOptions): Promise<LanguageModelV1StreamResult> {
    const { body, warnings } = buildAnthropicRequest(this.modelId, options, this.#config.catalogEntry);
    const client = await this.#getClient();
    const signal = options.abortSignal;
    const endpoint = client.baseURL;
    let result: Awaited<ReturnType<ReturnType<typeof client.messages.create>['withResponse']>>;
    try {
      result = await client.messages
        .create(body as unknown as Anthropic.MessageCreateParamsStreaming, { ...(signal ? { signal } : {}), ...(options.headers ? { headers: options.headers } : {}) })
        .withResponse();
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) throw signal ? abortError(signal) : error;
      throw toAnthropicProviderError(error, { endpoint });
    }
    const requestId = result.request_id ?? undefined;
    const headers: Record<string, string> = {};
    result.response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const events = result.data as unknown as AsyncIterable<AnthropicStreamEvent>;
    async function* parts(): AsyncGenerator<LanguageModelV1StreamPart> {
      yield { type: 'stream-start', warnings };
      const state = createAnthropicStreamState();
      let first = true;
      try {
        for await (const event of events) {
          for (const part of mapAnthropicStreamEvent(state, event)) {
            if (first && part.type === 'response-metadata') {
              first = false;
              yield { ...part, ...(requestId ? { requestId } : {}) };
            } else yield part;
          }
        }
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw signal ? abortError(signal) : error;
        yield { type: 'error', error: toAnthropicProviderError(error, { responseStarted: state.contentStarted, requestId, endpoint }) };
        return;
      }
      // The SDK ends the iteration quietly on abort; the caller must still see the abort.
      if (signal?.aborted) throw abortError(signal);
      yield* finishAnthropicStream(state, requestId);
    }
    return { stream: parts(), request: { body }, response: { headers } };
  }
}
