import type { EmbeddingModelV1 } from '@cairn/core';
import { embeddingModelKey, embedValues, type RetryOptions } from './embed-chunks.js';
import type { IndexStore } from './index-store.js';
import type { IndexProgress } from './types.js';

/** The text a chunk is embedded (and cached) as. The path is left out so renames reuse vectors. */
export function embeddingInput(chunk: { symbol?: string | null; text: string }): string {
  return (chunk.symbol ? `${chunk.symbol}\n` : '') + chunk.text.slice(0, maxInputCharacters);
}

/** About 2 000 tokens: every embedding model of the field takes that much in one input. */
const maxInputCharacters = 8000;
/**
 * One request's share of the work. OpenAI caps a request at 2 048 inputs *and* 300 000 tokens, local
 * servers hold a whole batch in memory, and each batch is committed on its own, so a failure loses
 * at most one batch: 256 inputs and 400 000 characters (~100 000 tokens) keep every server happy.
 */
const batchInputs = 256;
const batchCharacters = 400_000;

export interface EmbedPendingOptions {
  abortSignal?: AbortSignal;
  retry?: RetryOptions;
  onProgress?: (progress: IndexProgress) => void;
}

export interface EmbedPendingResult {
  /** Chunks that got a vector in this pass (from the cache or the model). */
  embedded: number;
  /** Inputs sent to the model (after the cache and duplicates were taken out). */
  requested: number;
  /** Chunks still without a vector: 0 unless the model failed. */
  pending: number;
  /** The model's error; the vectors made before it are kept and the next sync goes on from there. */
  error?: string;
}

type PendingChunk = ReturnType<IndexStore['chunksWithoutVectors']>[number];

/** Make the vector table match the model before anything is read from it. */
function prepareVectorTable(store: IndexStore, model: EmbeddingModelV1, key: string): void {
  if (model.dimensions) store.useEmbeddingModel(key, model.dimensions);
  // Size unknown until the first answer: vectors of another model must not be mixed with this one's.
  else if (store.getMeta('embedding_model') !== key && store.hasVectors) store.dropVectors();
}

/** Batches of distinct inputs not in the cache; chunks with a cached vector are written at once. */
function planBatches(store: IndexStore, key: string, pending: PendingChunk[], maxInputs: number): { cached: Map<string, Float32Array>; batches: Array<Array<{ hash: string; input: string }>> } {
  const cached = new Map<string, Float32Array>();
  const queued = new Set<string>();
  const batches: Array<Array<{ hash: string; input: string }>> = [];
  let batch: Array<{ hash: string; input: string }> = [];
  let characters = 0;
  for (const chunk of pending) {
    if (cached.has(chunk.contentHash) || queued.has(chunk.contentHash)) continue;
    const vector = store.cachedVector(chunk.contentHash, key);
    if (vector) {
      cached.set(chunk.contentHash, vector);
      continue;
    }
    const input = embeddingInput(chunk);
    if (batch.length > 0 && (batch.length >= maxInputs || characters + input.length > batchCharacters)) {
      batches.push(batch);
      batch = [];
      characters = 0;
    }
    queued.add(chunk.contentHash);
    batch.push({ hash: chunk.contentHash, input });
    characters += input.length;
  }
  if (batch.length) batches.push(batch);
  return { cached, batches };
}

/** Give every pending chunk whose hash has a vector that vector; returns how many got one. */
function writeVectors(store: IndexStore, key: string, chunksByHash: Map<string, PendingChunk[]>, vectors: Map<string, Float32Array>, cache: boolean): number {
  const first = vectors.values().next().value;
  if (!first) return 0;
  if (store.getMeta('embedding_model') !== key || store.dimensions !== first.length) store.useEmbeddingModel(key, first.length);
  let written = 0;
  store.transaction(() => {
    for (const [hash, vector] of vectors) {
      if (cache) store.cacheVector(hash, key, vector);
      for (const chunk of chunksByHash.get(hash) ?? []) {
        store.setChunkVector(chunk.id, vector);
        written++;
      }
    }
  });
  return written;
}

/**
 * Embed the chunks that have no vector yet. Vectors come from the cache (by content hash and model)
 * when they can; the rest go to the model in batches, each committed as it arrives, so a model that
 * fails midway leaves the vectors made so far (and a working keyword index), and the next pass
 * embeds only what is left. Model errors are returned, never thrown; aborts are thrown.
 */
export async function embedPending(store: IndexStore, model: EmbeddingModelV1 | undefined, options: EmbedPendingOptions = {}): Promise<EmbedPendingResult> {
  if (!model) return { embedded: 0, requested: 0, pending: 0 };
  const key = embeddingModelKey(model);
  prepareVectorTable(store, model, key);
  const pending = store.chunksWithoutVectors();
  const chunksByHash = new Map<string, PendingChunk[]>();
  for (const chunk of pending) chunksByHash.set(chunk.contentHash, [...(chunksByHash.get(chunk.contentHash) ?? []), chunk]);
  // One request per batch (Gemini takes 100), so each committed batch is one answered request.
  const { cached, batches } = planBatches(store, key, pending, Math.max(1, Math.min(batchInputs, model.maxEmbeddingsPerCall || 1)));
  let embedded = writeVectors(store, key, chunksByHash, cached, false);
  let requested = 0;
  const report = () => options.onProgress?.({ phase: 'embed', files: 0, totalFiles: 0, chunks: pending.length, embedded });
  report();
  try {
    for (const batch of batches) {
      const fresh = await embedValues(model, batch.map((item) => item.input), {
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
      });
      requested += batch.length;
      embedded += writeVectors(store, key, chunksByHash, new Map(batch.map((item, index) => [item.hash, fresh[index]!])), true);
      report();
    }
    return { embedded, requested, pending: 0 };
  } catch (error) {
    if (options.abortSignal?.aborted) throw error;
    return { embedded, requested, pending: pending.length - embedded, error: error instanceof Error ? error.message : String(error) };
  }
}
