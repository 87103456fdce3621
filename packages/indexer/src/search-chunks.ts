import type { EmbeddingModelV1 } from '@cairn/core';
import { embedValues, type RetryOptions } from './embed-chunks.js';
import type { IndexStore } from './index-store.js';
import { queryWords, rerankByNameCoverage } from './name-coverage.js';
import { reciprocalRankFusion } from './rank-fusion.js';
import { ftsQuery } from './tokenize.js';
import type { SearchResult } from './types.js';

export interface SearchChunksOptions {
  limit: number;
  /** Workspace-relative folders or files; empty = everywhere. */
  pathPrefixes: string[];
  /** Set when the store holds vectors of this model. */
  embeddingModel?: EmbeddingModelV1;
  abortSignal?: AbortSignal;
  retry?: RetryOptions;
}

/** BM25 candidates re-ordered by name coverage (and fused with vectors): enough to reach past the
 * long chunks that merely repeat the query's words, cheap to score (names only). */
const rerankPool = 200;

const insidePrefixes = (path: string, prefixes: string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * BM25 over the identifier-aware tokens, re-ordered by how well the query spells out each chunk's
 * name (name-coverage.ts), plus vector KNN when a model is given, fused by reciprocal rank.
 * Without vectors the score is the re-ranked text score (higher is better).
 */
export async function searchChunks(store: IndexStore, query: string, options: SearchChunksOptions): Promise<SearchResult[]> {
  const limit = Math.max(1, Math.min(options.limit, 200));
  // The same pool whatever the limit, so the first ten results do not depend on how many were asked.
  const candidates = Math.max(limit, rerankPool);
  const words = queryWords(query);
  const match = ftsQuery(query);
  const bm25Hits = match ? store.searchText(match, candidates, options.pathPrefixes) : [];
  const symbols = store.symbolsByIds(bm25Hits.map((hit) => hit.id));
  const textHits = rerankByNameCoverage(bm25Hits, (id) => symbols.get(id), words);
  let vectorIds: number[] | undefined;
  if (options.embeddingModel && query.trim()) {
    const [vector] = await embedValues(options.embeddingModel, [query], {
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
    if (vector) {
      // vec0 has no path filter: over-fetch, then keep the chunks inside the target folders.
      const filtered = options.pathPrefixes.length > 0;
      const hits = store.searchVectors(vector, filtered ? 500 : candidates);
      const paths = filtered ? store.chunksByIds(hits.map((hit) => hit.id)) : undefined;
      vectorIds = hits.filter((hit) => !paths || insidePrefixes(paths.get(hit.id)?.path ?? '', options.pathPrefixes)).map((hit) => hit.id);
    }
  }
  const ranked = vectorIds ? reciprocalRankFusion([textHits.map((hit) => hit.id), vectorIds]) : textHits;
  const top = ranked.slice(0, limit);
  const chunks = store.chunksByIds(top.map((item) => item.id));
  const results: SearchResult[] = [];
  for (const item of top) {
    const chunk = chunks.get(item.id);
    if (!chunk) continue;
    const result: SearchResult = { path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, score: item.score, kind: chunk.kind, snippet: snippetOf(chunk.text) };
    if (chunk.symbol) result.symbol = chunk.symbol;
    results.push(result);
  }
  return results;
}

/** The first lines of a chunk, capped, for result lists. */
function snippetOf(text: string, maxLines = 30, maxChars = 1500): string {
  const lines = text.split('\n').slice(0, maxLines).map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
  const joined = lines.join('\n');
  return joined.length > maxChars ? `${joined.slice(0, maxChars)}…` : joined;
}
