import { stemmer } from 'stemmer';

// Name coverage and snippets stem the same few thousand identifier parts and words on every query:
// memoised, a query over 300 candidates with 60-member classes costs lookups instead of Porter runs.
const cache = new Map<string, string>();
const maxEntries = 50_000;

/** Porter stem of a lowercase word (wooorm's `stemmer`), memoised. */
export function stem(word: string): string {
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (cache.size >= maxEntries) cache.clear();
    cache.set(word, stemmed);
  }
  return stemmed;
}
