import type { GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamResult, ModelCatalogEntry } from '@cairn/core/spec';
import { callHeaders, callProvider, driveProviderStream } from '@cairn/provider-utils';
import { GEMINI_DEFAULT_BASE_URL, type GoogleClientConfig, googleCallHttpOptions, lazyGoogleClient } from './google-client.js';
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
    const abortSignal = options.abortSignal;
    const endpoint = this.#config.client ? undefined : (this.#config.baseURL ?? GEMINI_DEFAULT_BASE_URL);
    const headers = callHeaders(options.headers);
    // The SDK takes the abort signal and per-call HTTP options inside `config`.
    const parameters = {
      ...request,
      config: {
        ...request.config,
        ...(abortSignal ? { abortSignal } : {}),
        httpOptions: googleCallHttpOptions(this.#config.headers, headers),
      },
    } as unknown as GenerateContentParameters;
    const chunks = await callProvider(() => client.models.generateContentStream(parameters), {
      abortSignal,
      toError: (error) => toGoogleProviderError(error, { endpoint }),
    });
    const state = createGoogleStreamState();
    const stream = driveProviderStream<GenerateContentResponse>({
      warnings,
      items: () => chunks,
      map: (chunk) => mapGoogleStreamChunk(state, chunk as unknown as GoogleChunkLike),
      finish: () => finishGoogleStream(state),
      // Open calls are dropped with the stream: only complete calls were emitted.
      toError: (error, { responseStarted }) => toGoogleProviderError(error, { responseStarted, endpoint }),
      responseStarted: () => state.blockCount > 0 || state.callCount > 0,
      abortSignal,
    });
    return { stream, request: { body: request } };
  }
}
