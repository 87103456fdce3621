import type { EmbeddingModelV1 } from '@cairn/core';
import { embedQuery, type RetryOptions } from './embed-chunks.js';
import type { ChunkNames, IndexStore } from './index-store.js';
import { bestName, type QueryWords, queryWords, rerankByNameCoverage } from './name-coverage.js';
import { reciprocalRankFusion } from './rank-fusion.js';
import { roleWeightsFor } from './role-weights.js';
import { matchedSnippet } from './snippet.js';
import { ftsQuery } from './tokenize.js';
import type { SearchResult } from './types.js';

export interface SearchChunksOptions {
  limit: number;
  /** Workspace-relative folders or files; empty = everywhere. */
  pathPrefixes: string[];
  /** Set when the store holds vectors of this model. */
  embeddingModel?: EmbeddingModelV1;
  abortSignal?: AbortSignal;
  /** Told why the query could not be embedded; the results are then keyword results only. */
  onEmbeddingError?: (message: string) => void;
  retry?: RetryOptions;
}

/** BM25 candidates re-ordered by name coverage (and fused with vectors): enough to reach past the
 * long chunks that merely repeat the query's words, cheap to score (names only). */
const rerankPool = 200;
/**
 * A second BM25 query over source files only adds this many candidates, so a tree whose tests and
 * docs repeat the query's words more often than the implementation still has the implementation
 * in the pool (docs/indexer.md, Retrieval quality).
 */
const sourcePool = 100;

const insidePrefixes = (path: string, prefixes: string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** Union of two BM25 hit lists (same scores for the same chunk), best first. */
function mergeHits(...lists: Array<Array<{ id: number; score: number }>>): Array<{ id: number; score: number }> {
  const byId = new Map<number, { id: number; score: number }>();
  for (const list of lists) for (const hit of list) if (!byId.has(hit.id)) byId.set(hit.id, hit);
  return [...byId.values()].sort((left, right) => left.score - right.score);
}

/**
 * The top BM25 hits plus the top `sourcePool` among source files. The second query is skipped when
 * the first already holds that many source hits (they are then the best source hits there are) or
 * every match.
 */
function poolWithSource(store: IndexStore, match: string, candidates: number, pathPrefixes: string[]): { hits: Array<{ id: number; score: number }>; names: Map<number, ChunkNames> } {
  const first = store.searchText(match, candidates, pathPrefixes);
  const names = store.namesByIds(first.map((hit) => hit.id));
  let sources = 0;
  for (const chunk of names.values()) if (chunk.role === 'source') sources++;
  if (sources >= sourcePool || first.length < candidates) return { hits: first, names };
  const extra = store.searchText(match, sourcePool, pathPrefixes, true).filter((hit) => !names.has(hit.id));
  for (const [id, chunk] of store.namesByIds(extra.map((hit) => hit.id))) names.set(id, chunk);
  return { hits: mergeHits(first, extra), names };
}

interface Candidate {
  id: number;
  score: number;
  bm25?: number;
  name?: number;
  label?: string;
  vector?: number;
}

/**
 * BM25 over the identifier-aware tokens (a pool that always holds source chunks), re-ordered by
 * how well the query spells out one of each chunk's defined names (name-coverage.ts), plus vector
 * KNN when a model is given, fused by reciprocal rank; then every score is multiplied by its file
 * role's weight (file-role.ts), so tests, docs and generated copies rank below source for the same
 * evidence without being dropped. Higher scores are better.
 */
export async function searchChunks(store: IndexStore, query: string, options: SearchChunksOptions): Promise<SearchResult[]> {
  const limit = Math.max(1, Math.min(options.limit, 200));
  // The same pool whatever the limit, so the first ten results do not depend on how many were asked.
  const candidates = Math.max(limit, rerankPool);
  const words = queryWords(query);
  const match = ftsQuery(query);
  const { hits: bm25Hits, names } = match ? poolWithSource(store, match, candidates, options.pathPrefixes) : { hits: [], names: new Map<number, ChunkNames>() };
  const textHits = rerankByNameCoverage(bm25Hits, (id) => names.get(id)?.names, words, undefined, (id) => names.get(id)?.path);
  const vectorHits = await vectorCandidates(store, query, options, candidates);
  let ranked: Candidate[];
  if (vectorHits) {
    const text = new Map(textHits.map((hit) => [hit.id, hit]));
    const similarity = new Map(vectorHits.map((hit) => [hit.id, 1 - hit.distance]));
    ranked = reciprocalRankFusion([textHits.map((hit) => hit.id), vectorHits.map((hit) => hit.id)]).map(({ id, score }) => {
      const hit = text.get(id);
      const vector = similarity.get(id);
      return { id, score, ...(hit ? { bm25: hit.bm25, name: hit.name, ...(hit.label ? { label: hit.label } : {}) } : {}), ...(vector !== undefined ? { vector } : {}) };
    });
  } else ranked = textHits;
  const roles = new Map([...names].map(([id, chunk]) => [id, chunk.role]));
  for (const [id, role] of store.rolesByIds(ranked.filter((item) => !roles.has(item.id)).map((item) => item.id))) roles.set(id, role);
  const roleWeight = roleWeightsFor(words);
  const demoted = ranked
    .map((item, order) => ({ item: { ...item, score: item.score * roleWeight(roles.get(item.id) ?? 'source') }, order }))
    .sort((left, right) => right.item.score - left.item.score || left.order - right.order)
    .map(({ item }) => item);
  return toResults(store, demoted.slice(0, limit), words, vectorHits !== undefined);
}

async function vectorCandidates(store: IndexStore, query: string, options: SearchChunksOptions, candidates: number): Promise<Array<{ id: number; distance: number }> | undefined> {
  if (!options.embeddingModel || !query.trim()) return undefined;
  // An embedding server that is down costs the vectors, never the search: keyword results still answer.
  const { vector, error } = await embedQuery(options.embeddingModel, query, {
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
  });
  if (!vector) {
    options.onEmbeddingError?.(error ?? 'no vector for the query');
    return undefined;
  }
  // vec0 has no path filter: over-fetch, then keep the chunks inside the target folders.
  const filtered = options.pathPrefixes.length > 0;
  const hits = store.searchVectors(vector, filtered ? 500 : candidates);
  if (!filtered) return hits;
  const paths = store.chunksByIds(hits.map((hit) => hit.id));
  return hits.filter((hit) => insidePrefixes(paths.get(hit.id)?.path ?? '', options.pathPrefixes));
}

function toResults(store: IndexStore, top: Candidate[], words: QueryWords, usedVectors: boolean): SearchResult[] {
  const chunks = store.chunksByIds(top.map((item) => item.id));
  const names = store.namesByIds(top.filter((item) => item.label === undefined).map((item) => item.id));
  const results: SearchResult[] = [];
  for (const item of top) {
    const chunk = chunks.get(item.id);
    if (!chunk) continue;
    // A vector-only hit was never name-scored: its label is still the name the query matches best.
    const label = item.label ?? bestName(names.get(item.id)?.names ?? [], words).name ?? chunk.symbol ?? undefined;
    const snippet = matchedSnippet(chunk.text, chunk.startLine, words);
    const scoreParts: SearchResult['scoreParts'] = { bm25: round(item.bm25 ?? 0), name: round(item.name ?? 0), ...(usedVectors ? { vector: round(item.vector ?? 0) } : {}) };
    const result: SearchResult = { path: chunk.path, startLine: chunk.startLine, endLine: chunk.endLine, score: item.score, kind: chunk.kind, role: chunk.role, snippet: snippet.text, snippetLine: snippet.line, scoreParts };
    if (label) result.symbol = label;
    results.push(result);
  }
  return results;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
