/** The contract for embedding adapters (OpenAI text-embedding-3-*, Gemini, OpenAI-compatible servers). */
export interface EmbeddingModelV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  /** Vector length, when known before the first call. */
  readonly dimensions?: number;
  /** How many values one `doEmbed` call accepts; callers batch to this size. */
  readonly maxEmbeddingsPerCall: number;
  doEmbed(options: { values: string[]; abortSignal?: AbortSignal; headers?: Record<string, string> }): Promise<{
    embeddings: number[][];
    usage?: { tokens: number };
  }>;
}
