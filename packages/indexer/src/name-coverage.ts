import { stemmer } from 'stemmer';
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
}

const minimumAbbreviation = 3;

export function queryWords(query: string): QueryWords {
  const words = [...new Set(codeTokens(query).flatMap((token) => (token.includes('_') ? identifierParts(token) : [token])))].filter((word) => !isStopWord(word));
  return { stems: new Set(words.map((word) => stemmer(word))), words };
}

/** 0..1: the share of the name's meaningful parts the query contains. */
export function nameCoverage(name: string, query: QueryWords): number {
  const parts = identifierParts(name).filter((part) => !isStopWord(part));
  if (parts.length === 0) return 0;
  let covered = 0;
  for (const part of parts) {
    if (query.stems.has(stemmer(part))) covered += 1;
    // An abbreviation counts for less: `min` begins both "minutes" and "minimum".
    else if (part.length >= minimumAbbreviation && query.words.some((word) => word.length > part.length && word.startsWith(part))) covered += 0.5;
  }
  return covered / parts.length;
}

export interface RankedHit {
  id: number;
  /** Higher is better. */
  score: number;
}

// Chosen on the retrieval evaluation (docs/indexer.md; tuned on date-fns, lodash-es and zod, ramda
// measured afterwards): 0.5 lifted file recall@10 on those three and left ramda level (0.422 ->
// 0.425); 1 and 2 won more on date-fns but lost on lodash-es and at chunk level on zod.
const coverageWeight = 0.5;

/**
 * Re-order BM25 hits by `relevance / best relevance + weight * coverage`, where relevance is the
 * negated BM25 score: the BM25 order still decides among chunks that the query names equally well.
 */
export function rerankByNameCoverage(hits: Array<{ id: number; score: number }>, nameOf: (id: number) => string | undefined, query: QueryWords, weight = coverageWeight): RankedHit[] {
  if (hits.length === 0 || query.words.length === 0) return hits.map((hit) => ({ id: hit.id, score: -hit.score }));
  const best = Math.max(...hits.map((hit) => -hit.score), Number.EPSILON);
  return hits
    .map((hit, order) => {
      const name = nameOf(hit.id);
      return { id: hit.id, order, score: -hit.score / best + (name ? weight * nameCoverage(name, query) : 0) };
    })
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .map(({ id, score }) => ({ id, score }));
}
