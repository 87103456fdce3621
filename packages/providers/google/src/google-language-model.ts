import type { GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { isAbortError, type LanguageModelV1, type LanguageModelV1CallOptions, type LanguageModelV1StreamPart, type LanguageModelV1StreamResult, type ModelCatalogEntry } from '@cairn/core';
import { abortError, GEMINI_DEFAULT_BASE_URL, type GoogleClientConfig, lazyGoogleClient } from './google-client.js';
import { toGoogleProviderError } from './google-error.js';
import { buildGoogleRequest } from './google-request.js';
import { createGoogleStreamState, finishGoogleStream, type GoogleChunkLike, mapGoogleStreamChunk } from './map-google-stream-event.js';

export interface GoogleLanguageModelConfig extends GoogleClientConfig {
  catalogEntry?: ModelCatalogEntry;
}

/** Gemini through `models.generateContentStream`. */
export class GoogleLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'google';
  readonly modelId: string;
  readonly #config: GoogleLanguageModelConfig;
  readonly #getClient: () => Promise<GoogleGenAI>;

  constructor(modelId: string, config: GoogleLanguageModelConfig) {
    this.modelId = modelId;
    this.#config = config;
    this.#getClient = lazyGoogleClient(config);
  }

  async doStream(options: LanguageModelV1CallOptions): Promise<LanguageModelV1StreamResult> {
    const { request, warnings } = buildGoogleRequest(this.modelId, options, this.#config.catalogEntry);
    const client = await this.#getClient();
    const signal = options.abortSignal;
    const endpoint = this.#config.client ? undefined : (this.#config.baseURL ?? GEMINI_DEFAULT_BASE_URL);
    const headers = Object.fromEntries(Object.entries(options.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const parameters = {
      ...request,
      config: {
        ...request.config,
        ...(signal ? { abortSignal: signal } : {}),
        ...(Object.keys(headers).length > 0 ? { httpOptions: { headers: { ...(this.#config.headers ?? {}), ...headers } } } : {}),
      },
    } as unknown as GenerateContentParameters;
    let chunks: AsyncGenerator<GenerateContentResponse>;
    try {
      chunks = await client.models.generateContentStream(parameters);
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) throw signal ? abortError(signal) : error;
      throw toGoogleProviderError(error, { endpoint });
    }
    async function* parts(): AsyncGenerator<LanguageModelV1StreamPart> {
      yield { type: 'stream-start', warnings };
      const state = createGoogleStreamState();
      try {
        for await (const chunk of chunks) {
          yield* mapGoogleStreamChunk(state, chunk as unknown as GoogleChunkLike);
        }
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw signal ? abortError(signal) : error;
        // Open calls are dropped with the stream: only complete calls were emitted.
        yield { type: 'error', error: toGoogleProviderError(error, { responseStarted: state.blockCount > 0 || state.callCount > 0, endpoint }) };
        return;
      }
      if (signal?.aborted) throw abortError(signal);
      yield* finishGoogleStream(state);
    }
    return { stream: parts(), request: { body: request } };
  }
}
