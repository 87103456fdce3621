import type { EmbeddingModelV1 } from '@cairn/core';
import { embeddingModelKey, embedValues, type RetryOptions } from './embed-chunks.js';
import type { IndexStore } from './index-store.js';
import type { IndexProgress } from './types.js';

/** The text a chunk is embedded (and cached) as. The path is left out so renames reuse vectors. */
export function embeddingInput(chunk: { symbol?: string | null; text: string }): string {
  return (chunk.symbol ? `${chunk.symbol}\n` : '') + chunk.text.slice(0, 8000);
}

export interface EmbedPendingOptions {
  abortSignal?: AbortSignal;
  retry?: RetryOptions;
  onProgress?: (progress: IndexProgress) => void;
}

/** Embed chunks that have no vector, reusing cached vectors by content hash. Never throws for model errors. */
export async function embedPending(store: IndexStore, model: EmbeddingModelV1 | undefined, options: EmbedPendingOptions = {}): Promise<{ embedded: number; error?: string }> {
  if (!model) return { embedded: 0 };
  const signal = options.abortSignal;
  const key = embeddingModelKey(model);
  if (model.dimensions) store.useEmbeddingModel(key, model.dimensions);
  else if (store.getMeta('embedding_model') !== key && store.hasVectors) store.dropVectors();
  const pending = store.chunksWithoutVectors();
  let embedded = 0;
  const groupSize = Math.max(1, model.maxEmbeddingsPerCall) * 4;
  try {
    for (let start = 0; start < pending.length; start += groupSize) {
      const group = pending.slice(start, start + groupSize);
      const vectors = new Map<string, Float32Array>();
      const missing: Array<{ hash: string; input: string }> = [];
      for (const chunk of group) {
        if (vectors.has(chunk.contentHash) || missing.some((item) => item.hash === chunk.contentHash)) continue;
        const cached = store.cachedVector(chunk.contentHash, key);
        if (cached) vectors.set(chunk.contentHash, cached);
        else missing.push({ hash: chunk.contentHash, input: embeddingInput(chunk) });
      }
      const fresh = await embedValues(model, missing.map((item) => item.input), {
        ...(signal ? { abortSignal: signal } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
      });
      missing.forEach((item, index) => {
        const vector = fresh[index];
        if (vector) vectors.set(item.hash, vector);
      });
      const first = vectors.values().next().value;
      if (first && (store.getMeta('embedding_model') !== key || store.dimensions !== first.length)) store.useEmbeddingModel(key, first.length);
      store.transaction(() => {
        for (const item of missing) {
          const vector = vectors.get(item.hash);
          if (vector) store.cacheVector(item.hash, key, vector);
        }
        for (const chunk of group) {
          const vector = vectors.get(chunk.contentHash);
          if (vector) store.setChunkVector(chunk.id, vector);
        }
      });
      embedded += group.length;
      options.onProgress?.({ phase: 'embed', files: 0, totalFiles: 0, chunks: pending.length, embedded });
    }
    return { embedded };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { embedded, error: error instanceof Error ? error.message : String(error) };
  }
}
