import { fileMentions, fileNameCoverages } from './file-name-coverage.js';
import { stem } from './stem.js';
import { codeTokens, identifierParts, isStopWord } from './tokenize.js';

/**
 * Name coverage: how much of a chunk's own name the query spells out. A developer who asks "get
 * the decade of the given date" is describing `getDecade`; BM25 sees the same words spread over
 * any long chunk that uses them, but only the chunk *named* by them is the answer. Coverage is the
 * share of the name's parts (`get`, `decade`) found among the query's words, after stemming, with
 * an abbreviated part (`sub` in `subDays`, `diff`, `num`) matching a query word it begins.
 */
export interface QueryWords {
  /** Stems of the query's meaningful words. */
  stems: Set<string>;
  /** The lowercase words themselves, for abbreviation (prefix) matches. */
  words: string[];
  /** Words written as file names (`stores.md`, `README`), as written: file-name-coverage.ts. */
  fileNames: Set<string>;
}

const minimumAbbreviation = 3;

export function queryWords(query: string): QueryWords {
  const words = [...new Set(codeTokens(query).flatMap((token) => (token.includes('_') ? identifierParts(token) : [token])))].filter((word) => !isStopWord(word));
  return { stems: new Set(words.map((word) => stem(word))), words, fileNames: fileMentions(query) };
}

/** 0..1: the share of the name's meaningful parts the query contains. */
const partsCache = new Map<string, string[]>();

/** A name's meaningful parts, memoised: the same names come back on every query. */
export function nameParts(name: string): string[] {
  let parts = partsCache.get(name);
  if (!parts) {
    parts = identifierParts(name).filter((part) => !isStopWord(part));
    if (partsCache.size >= 50_000) partsCache.clear();
    partsCache.set(name, parts);
  }
  return parts;
}

export function nameCoverage(name: string, query: QueryWords): number {
  const parts = nameParts(name);
  if (parts.length === 0) return 0;
  let covered = 0;
  for (const part of parts) {
    if (query.stems.has(stem(part))) covered += 1;
    // An abbreviation counts for less: `min` begins both "minutes" and "minimum".
    else if (part.length >= minimumAbbreviation && query.words.some((word) => word.length > part.length && word.startsWith(part))) covered += 0.5;
  }
  return covered / parts.length;
}

export interface RankedHit {
  id: number;
  /** Higher is better. */
  score: number;
  /** BM25 relevance relative to the best hit in the pool (0..1). */
  bm25: number;
  /** Weighted name coverage of the best-matching name (0..1 for the chunk's own name). */
  name: number;
  /** The defined name the query matched best, when it matched one. */
  label?: string;
}

// Chosen on the retrieval evaluation (docs/indexer.md; tuned on date-fns, lodash-es and zod, ramda
// measured afterwards): 0.5 lifted file recall@10 on those three and left ramda level (0.422 ->
// 0.425); 1 and 2 won more on date-fns but lost on lodash-es and at chunk level on zod.
const coverageWeight = 0.5;
// A merged helper or a class member is named by the chunk but is not what it is about: its
// coverage counts for less than the chunk's own name. 0.3 and 0.6 tied on most corpora; 0.6 lost
// 0.007 file R@10 on ramda and 0.02 on this repository's history, 0.3 lost 0.02 on zod and fastify
// against 0.6 but stays above main there (docs/indexer.md, Retrieval quality).
export const secondaryNameWeight = 0.3;
// A file named by the query (`run-tool-calls.ts` for "run-tool-calls: plain ToolDefinition type"):
// +0.02 file R@10 on this repository's history, +0.02 on date-fns; 0.5 lost on zod and fastify.
const fileNameWeight = 0.25;
/**
 * The name among a chunk's defined names (its main name first) that the query spells out best,
 * secondary names weighted by `secondaryNameWeight`.
 */
export function bestName(names: readonly string[], query: QueryWords): { name?: string; coverage: number } {
  let best: { name?: string; coverage: number } = { coverage: 0 };
  names.forEach((name, index) => {
    const coverage = nameCoverage(name, query) * (index === 0 ? 1 : secondaryNameWeight);
    if (coverage > best.coverage) best = { name, coverage };
  });
  return best;
}

/**
 * Re-order BM25 hits by `relevance / best relevance + weight * coverage`, where relevance is the
 * negated BM25 score and coverage that of the best-matching defined name: the BM25 order still
 * decides among chunks that the query names equally well.
 */
export function rerankByNameCoverage(
  hits: Array<{ id: number; score: number }>,
  namesOf: (id: number) => readonly string[] | undefined,
  query: QueryWords,
  weight = coverageWeight,
  pathOf: (id: number) => string | undefined = () => undefined,
): RankedHit[] {
  const best = Math.max(...hits.map((hit) => -hit.score), Number.EPSILON);
  const scoreNames = query.words.length > 0;
  const paths: string[] = [];
  if (scoreNames) for (const hit of hits) { const path = pathOf(hit.id); if (path !== undefined) paths.push(path); }
  const fileNames = fileNameCoverages(paths, query);
  const fileCoverage = (path: string | undefined) => (path === undefined ? 0 : (fileNames.get(path) ?? 0));
  return hits
    .map((hit, order) => {
      const bm25 = -hit.score / best;
      const matched = scoreNames ? bestName(namesOf(hit.id) ?? [], query) : { coverage: 0 };
      const file = fileCoverage(pathOf(hit.id));
      const ranked: RankedHit & { order: number } = { id: hit.id, order, score: bm25 + weight * matched.coverage + fileNameWeight * file, bm25, name: matched.coverage };
      if (matched.name) ranked.label = matched.name;
      return ranked;
    })
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .map(({ order: _order, ...hit }) => hit);
}
