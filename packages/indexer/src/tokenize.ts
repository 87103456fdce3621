/**
 * Identifier-aware tokens for FTS5. Code identifiers are split at camelCase / PascalCase /
 * snake_case / kebab-case / digit boundaries and kept whole too, so `parseHttpHeader` is found by
 * `parse http header`, by `parseHttpHeader` and by `parse_http_header`'s parts. The result is a
 * space-separated lowercase string stored in an FTS5 column tokenised by `unicode61` with `_` as a
 * token character (so whole snake_case identifiers survive as one token).
 */
const wordPattern = /[\p{L}\p{N}_$]+/gu;
const asciiWordPattern = /[A-Za-z0-9_$]+|[^\x00-\x7F]+/g;
const camelBoundary = /[\p{Lu}]?[\p{Ll}]+|[\p{Lu}]+(?![\p{Ll}])|\p{N}+|[\p{Lo}]+/gu;
const asciiCamelBoundary = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;
const isAscii = (text: string) => /^[\x00-\x7F]*$/.test(text);

/** Parts of one identifier: `getHTTPResponse2` -> `get`, `http`, `response`, `2`. */
export function identifierParts(word: string): string[] {
  const parts: string[] = [];
  const boundary = isAscii(word) ? asciiCamelBoundary : camelBoundary;
  for (const piece of word.split(/[_$]+/)) {
    if (!piece) continue;
    for (const match of piece.matchAll(boundary)) parts.push(match[0].toLowerCase());
  }
  return parts;
}

/** Tokens of a text: every word whole (lowercased) plus its parts when it has more than one. */
export function codeTokens(text: string, maxTokens = 20_000): string[] {
  const tokens: string[] = [];
  // Source code is mostly ASCII: a plain character-class scan is several times faster than \p{..}.
  const pattern = isAscii(text) ? asciiWordPattern : wordPattern;
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const word = match[0];
    if (/^[a-z]+$/.test(word)) {
      // The common case: a lowercase word has no parts.
      tokens.push(word);
    } else {
      const whole = word.replace(/^[_$]+|[_$]+$/g, '').replace(/\$/g, '_').toLowerCase();
      if (!whole) continue;
      tokens.push(whole);
      const parts = identifierParts(word);
      if (parts.length > 1) tokens.push(...parts);
    }
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

export const isStopWord = (word: string) => stopWords.has(word);

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
