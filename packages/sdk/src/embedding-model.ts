import { type EmbeddingModelV1, type EmbeddingSetting, type ResolveEmbeddingOptions, resolveEmbeddingSetting } from '@cairn/core';
import { registry } from './registry.js';

export type { EmbeddingSetting, ResolveEmbeddingOptions } from '@cairn/core';

/**
 * The embedding model `spec` names, from the SDK's providers: `openai/text-embedding-3-small`
 * (OPENAI_API_KEY; OPENAI_BASE_URL or `baseURL` for any OpenAI-compatible `/v1/embeddings` server),
 * `google/gemini-embedding-001` (GEMINI_API_KEY), `ollama/nomic-embed-text` (no key; OLLAMA_BASE_URL,
 * else OLLAMA_HOST, else http://localhost:11434). A malformed spec, an unknown provider and a
 * missing key are ConfigurationErrors whose message says what to set.
 */
export function resolveEmbeddingModel(spec: EmbeddingSetting, options: ResolveEmbeddingOptions = {}): EmbeddingModelV1 {
  return resolveEmbeddingSetting(registry, spec, options);
}
