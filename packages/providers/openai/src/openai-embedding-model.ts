import type { EmbeddingModelV1 } from '@cairn/core/spec';
import { callProvider, sdkRequestOptions } from '@cairn/provider-utils';
import type { OpenAIModelConfig } from './openai-client.js';
import { toOpenAIProviderError } from './openai-error.js';

const knownDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** OpenAI's limit of inputs per embeddings request. */
export const maxEmbeddingsPerCall = 2048;

/** Embeddings on `POST /embeddings` (OpenAI or a compatible server), as float vectors. */
export class OpenAIEmbeddingModel implements EmbeddingModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = maxEmbeddingsPerCall;
  readonly dimensions?: number;
  readonly #config: Pick<OpenAIModelConfig, 'provider' | 'getClient' | 'errorContext'>;

  constructor(modelId: string, config: Pick<OpenAIModelConfig, 'provider' | 'getClient' | 'errorContext'>) {
    this.modelId = modelId;
    this.#config = config;
    const dimensions = knownDimensions[modelId];
    if (dimensions !== undefined) this.dimensions = dimensions;
  }

  get provider(): string {
    return this.#config.provider;
  }

  async doEmbed(options: { values: string[]; abortSignal?: AbortSignal; headers?: Record<string, string> }): Promise<{
    embeddings: number[][];
    usage?: { tokens: number };
  }> {
    const embeddings: number[][] = [];
    let tokens = 0;
    let sawUsage = false;
    const client = await this.#config.getClient();
    // Callers should batch to maxEmbeddingsPerCall; larger inputs are split here rather than rejected.
    for (let start = 0; start < options.values.length; start += maxEmbeddingsPerCall) {
      const batch = options.values.slice(start, start + maxEmbeddingsPerCall);
      // `float` explicitly: the SDK would ask for base64, which not every compatible server speaks.
      const response = await callProvider(() => client.embeddings.create({ model: this.modelId, input: batch, encoding_format: 'float' }, sdkRequestOptions(options)), {
        abortSignal: options.abortSignal,
        toError: (error) => toOpenAIProviderError(error, this.#config.errorContext),
      });
      for (const item of [...response.data].sort((a, b) => a.index - b.index)) embeddings.push(item.embedding);
      if (response.usage) {
        sawUsage = true;
        tokens += response.usage.prompt_tokens ?? 0;
      }
    }
    return sawUsage ? { embeddings, usage: { tokens } } : { embeddings };
  }
}
