import type { GoogleGenAI } from '@google/genai';
import { ProviderError } from '@cairn/core/errors';
import type { EmbeddingModelV1 } from '@cairn/core/spec';
import { callHeaders, callProvider } from '@cairn/provider-utils';
import { GEMINI_DEFAULT_BASE_URL, type GoogleClientConfig, googleCallHttpOptions, lazyGoogleClient } from './google-client.js';
import { toGoogleProviderError } from './google-error.js';

export interface GoogleEmbeddingModelConfig extends GoogleClientConfig {
  dimensions?: number;
  /** `outputDimensionality`: shorter vectors from gemini-embedding-001 (768, 1536 or 3072). */
  outputDimensionality?: number;
  /** Gemini task type, e.g. `RETRIEVAL_DOCUMENT` or `CODE_RETRIEVAL_QUERY`. */
  taskType?: string;
}

/** The Gemini API's batchEmbedContents accepts at most 100 requests. */
export const GOOGLE_MAX_EMBEDDINGS_PER_CALL = 100;

/** Gemini embeddings through `models.embedContent` (the SDK sends one batch request per call). */
export class GoogleEmbeddingModel implements EmbeddingModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'google';
  readonly modelId: string;
  readonly dimensions?: number;
  readonly maxEmbeddingsPerCall = GOOGLE_MAX_EMBEDDINGS_PER_CALL;
  readonly #config: GoogleEmbeddingModelConfig;
  readonly #getClient: () => Promise<GoogleGenAI>;

  constructor(modelId: string, config: GoogleEmbeddingModelConfig) {
    this.modelId = modelId;
    this.#config = config;
    this.dimensions = config.outputDimensionality ?? config.dimensions;
    this.#getClient = lazyGoogleClient(config);
  }

  async doEmbed(options: { values: string[]; abortSignal?: AbortSignal; headers?: Record<string, string> }): Promise<{ embeddings: number[][] }> {
    if (options.values.length === 0) return { embeddings: [] };
    if (options.values.length > this.maxEmbeddingsPerCall) {
      throw new ProviderError(`Gemini embeds at most ${this.maxEmbeddingsPerCall} values per call; got ${options.values.length}. Batch the values.`, { provider: 'google', isRetryable: false });
    }
    const client = await this.#getClient();
    const abortSignal = options.abortSignal;
    const endpoint = this.#config.client ? undefined : (this.#config.baseURL ?? GEMINI_DEFAULT_BASE_URL);
    const headers = callHeaders(options.headers);
    const response = await callProvider(
      () =>
        client.models.embedContent({
          model: this.modelId,
          contents: options.values,
          config: {
            ...(abortSignal ? { abortSignal } : {}),
            httpOptions: googleCallHttpOptions(this.#config.headers, headers),
            ...(this.#config.outputDimensionality ? { outputDimensionality: this.#config.outputDimensionality } : {}),
            ...(this.#config.taskType ? { taskType: this.#config.taskType } : {}),
          },
        }),
      { abortSignal, toError: (error) => toGoogleProviderError(error, { endpoint }) },
    );
    const embeddings = (response.embeddings ?? []).map((embedding) => embedding.values ?? []);
    if (embeddings.length !== options.values.length) {
      throw new ProviderError(`Gemini returned ${embeddings.length} embeddings for ${options.values.length} values.`, { provider: 'google', isRetryable: false, body: response });
    }
    return { embeddings };
  }
}
