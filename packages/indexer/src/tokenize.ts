/**
 * Identifier-aware tokens for FTS5. Code identifiers are split at camelCase / PascalCase /
 * snake_case / kebab-case / digit boundaries and kept whole too, so `parseHttpHeader` is found by
 * `parse http header`, by `parseHttpHeader` and by `parse_http_header`'s parts. The result is a
 * space-separated lowercase string stored in an FTS5 column tokenised by `unicode61` with `_` as a
 * token character (so whole snake_case identifiers survive as one token).
 */
const wordPattern = /[\p{L}\p{N}_$]+/gu;
const camelBoundary = /[\p{Lu}]?[\p{Ll}]+|[\p{Lu}]+(?![\p{Ll}])|\p{N}+|[\p{Lo}]+/gu;

/** Parts of one identifier: `getHTTPResponse2` -> `get`, `http`, `response`, `2`. */
export function identifierParts(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(/[_$]+/)) {
    if (!piece) continue;
    for (const match of piece.matchAll(camelBoundary)) parts.push(match[0].toLowerCase());
  }
  return parts;
}

/** Tokens of a text: every word whole (lowercased) plus its parts when it has more than one. */
export function codeTokens(text: string, maxTokens = 20_000): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(wordPattern)) {
    const word = match[0];
    const whole = word.replace(/^[_$]+|[_$]+$/g, '').replace(/\$/g, '_').toLowerCase();
    if (!whole) continue;
    tokens.push(whole);
    const parts = identifierParts(word);
    if (parts.length > 1) tokens.push(...parts);
    if (tokens.length >= maxTokens) break;
  }
  return tokens;
}

export function tokenizeForIndex(text: string): string {
  return codeTokens(text).join(' ');
}

/** Path tokens: every segment whole (without extension too) and its identifier parts. */
export function pathTokens(path: string): string {
  const tokens: string[] = [];
  for (const segment of path.split('/')) {
    const stem = segment.replace(/\.[^.]+$/, '');
    tokens.push(...codeTokens(stem.replace(/[-.]/g, '_')), ...codeTokens(segment.replace(/[-.]/g, ' ')));
  }
  return [...new Set(tokens)].join(' ');
}

const stopWords = new Set(
  ('a an and are as at be by can do does for from has have how i if in into is it its of on or that the their then there these this ' +
    'to was we what when where which who why will with you your').split(' '),
);

/**
 * An FTS5 MATCH expression for a free-text or identifier query: the query's code tokens (stop
 * words dropped unless nothing else is left), each quoted, joined by OR so BM25 ranks partial
 * matches. Tokens only contain letters, digits and `_`, so nothing reaches FTS5 syntax.
 */
export function ftsQuery(query: string): string | undefined {
  const all = [...new Set(codeTokens(query))];
  const meaningful = all.filter((token) => !stopWords.has(token));
  const tokens = (meaningful.length > 0 ? meaningful : all).slice(0, 64);
  if (tokens.length === 0) return undefined;
  return tokens.map((token) => `"${token}"`).join(' OR ');
}
