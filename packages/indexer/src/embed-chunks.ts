import type { EmbeddingModelV1 } from '@cairn/core';
import { CairnError } from '@cairn/core/errors';

export interface RetryOptions {
  maxRetries?: number;
  initialDelayMs?: number;
}

/** The key vectors are cached under: a vector from another model or size is never reused. */
export function embeddingModelKey(model: EmbeddingModelV1): string {
  return `${model.provider}:${model.modelId}${model.dimensions ? `:${model.dimensions}` : ''}`;
}

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function isRetryable(error: unknown): boolean {
  if (CairnError.isInstance(error)) return error.isRetryable;
  return false;
}

/**
 * Embed values with the model, `maxEmbeddingsPerCall` at a time, retrying retryable errors with
 * exponential backoff (honouring the provider's retry-after advice). Adapters are expected to have
 * their SDK's own retries off, so retries happen in this one layer. Aborts are never retried.
 */
export async function embedValues(model: EmbeddingModelV1, values: string[], options: { abortSignal?: AbortSignal; retry?: RetryOptions; onBatch?: (done: number) => void } = {}): Promise<Float32Array[]> {
  const batchSize = Math.max(1, model.maxEmbeddingsPerCall || 1);
  const maxRetries = options.retry?.maxRetries ?? 4;
  const initialDelayMs = options.retry?.initialDelayMs ?? 500;
  const vectors: Float32Array[] = [];
  for (let start = 0; start < values.length; start += batchSize) {
    const batch = values.slice(start, start + batchSize);
    for (let attempt = 0; ; attempt++) {
      options.abortSignal?.throwIfAborted();
      try {
        const { embeddings } = await model.doEmbed({ values: batch, ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}) });
        if (embeddings.length !== batch.length) throw new CairnError(`The embedding model ${model.modelId} returned ${embeddings.length} vectors for ${batch.length} values.`);
        for (const embedding of embeddings) vectors.push(Float32Array.from(embedding));
        break;
      } catch (error) {
        if (options.abortSignal?.aborted || attempt >= maxRetries || !isRetryable(error)) throw error;
        const advised = (error as { retryAfterMs?: number }).retryAfterMs;
        await sleep(advised ?? initialDelayMs * 2 ** attempt, options.abortSignal);
      }
    }
    options.onBatch?.(vectors.length);
  }
  return vectors;
}

/**
 * A search query's vector. A model that fails (after the retries) gives `error` instead of throwing,
 * so a search can still answer from keywords while the embedding server is down; aborts are thrown.
 */
export async function embedQuery(model: EmbeddingModelV1, query: string, options: { abortSignal?: AbortSignal; retry?: RetryOptions } = {}): Promise<{ vector?: Float32Array; error?: string }> {
  try {
    const [vector] = await embedValues(model, [query], options);
    return vector ? { vector } : { error: `The embedding model ${model.modelId} returned no vector for the query.` };
  } catch (error) {
    if (options.abortSignal?.aborted) throw error;
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
