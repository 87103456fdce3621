import { describe, expect, it } from 'vitest';
import { bestName, nameCoverage, queryWords, rerankByNameCoverage, secondaryNameWeight } from './name-coverage.js';

describe('nameCoverage', () => {
  it('is the share of the name parts the query spells out, after stemming', () => {
    const query = queryWords('Get the decade of the given date.');
    expect(nameCoverage('getDecade', query)).toBe(1);
    expect(nameCoverage('getDecades', query)).toBe(1);
    expect(nameCoverage('getYear', query)).toBe(0.5);
    expect(nameCoverage('formatters', query)).toBe(0);
  });

  it('gives an abbreviated part half credit when a query word begins with it', () => {
    const query = queryWords('Subtract the specified number of days from the given date');
    expect(nameCoverage('subDays', query)).toBe(0.75);
    // Two-letter parts are too ambiguous to count as abbreviations.
    expect(nameCoverage('findById', queryWords('find by identifier'))).toBe(0.5);
  });

  it('ignores stop words in names and splits snake_case and identifiers inside the query', () => {
    expect(nameCoverage('differenceInHours', queryWords('difference in hours'))).toBe(1);
    expect(nameCoverage('parse_http_header', queryWords('how is parseHttpHeader called'))).toBe(1);
    expect(nameCoverage('of', queryWords('of'))).toBe(0);
  });
});

describe('rerankByNameCoverage', () => {
  const names = new Map([
    [1, ['formatters']],
    [2, ['getDecade']],
    [3, ['getYear']],
  ]);

  it('lifts the chunk the query names above longer chunks that only repeat its words', () => {
    // BM25 scores are negative, lower = better: chunk 1 won on word counts alone.
    const hits = [{ id: 1, score: -9 }, { id: 3, score: -6 }, { id: 2, score: -5 }];
    const ranked = rerankByNameCoverage(hits, (id) => names.get(id), queryWords('get the decade of a date'));
    expect(ranked.map((hit) => hit.id)).toEqual([2, 1, 3]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('keeps the BM25 order when no name is covered, and when the query has no meaningful word', () => {
    const hits = [{ id: 1, score: -9 }, { id: 3, score: -6 }, { id: 2, score: -5 }];
    expect(rerankByNameCoverage(hits, (id) => names.get(id), queryWords('unrelated words')).map((hit) => hit.id)).toEqual([1, 3, 2]);
    expect(rerankByNameCoverage(hits, (id) => names.get(id), queryWords('the of a')).map((hit) => hit.score)).toEqual([1, 6 / 9, 5 / 9]);
    expect(rerankByNameCoverage([], () => undefined, queryWords('date'))).toEqual([]);
  });
});

describe('every defined name counts', () => {
  it('matches a merged helper or a member by name, below the chunk\'s own name', () => {
    const query = queryWords('get the decade of a date');
    expect(bestName(['formatters', 'getDecade'], query)).toEqual({ name: 'getDecade', coverage: secondaryNameWeight });
    expect(bestName(['getDecade', 'getYear'], query)).toEqual({ name: 'getDecade', coverage: 1 });
    expect(bestName(['formatters'], query)).toEqual({ coverage: 0 });
  });

  it('labels each hit with the name that matched and reports its score parts', () => {
    const hits = [{ id: 1, score: -8 }, { id: 2, score: -7 }];
    const ranked = rerankByNameCoverage(hits, (id) => (id === 1 ? ['formatters'] : ['Helpers', 'getDecade']), queryWords('get the decade of a date'));
    expect(ranked[0]).toEqual({ id: 2, score: 7 / 8 + 0.5 * secondaryNameWeight, bm25: 7 / 8, name: secondaryNameWeight, label: 'getDecade' });
    expect(ranked[1]).toEqual({ id: 1, score: 1, bm25: 1, name: 0 });
  });
});
