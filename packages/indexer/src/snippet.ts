import { stem } from './stem.js';
import type { QueryWords } from './name-coverage.js';
import { codeTokens, identifierParts } from './tokenize.js';

export interface Snippet {
  text: string;
  /** 1-based line of the snippet's first line in the file. */
  line: number;
}

const maxLineChars = 240;

/** How many of the query's words a line holds (whole tokens or identifier parts, stemmed). */
function lineScore(line: string, query: QueryWords, prefixes: string[]): number {
  // Most lines hold none of the query's words: a substring test on the words' first letters skips
  // tokenising and stemming them (a stem can differ from its word only after those letters).
  const lower = line.toLowerCase();
  if (!prefixes.some((prefix) => lower.includes(prefix))) return 0;
  const found = new Set<string>();
  for (const token of codeTokens(line, 200)) {
    for (const word of token.includes('_') ? identifierParts(token) : [token]) {
      const stemmed = stem(word);
      if (query.stems.has(stemmed)) found.add(stemmed);
    }
  }
  return found.size;
}

/**
 * The few lines of a chunk that match the query best: the window of `maxLines` lines holding the
 * most query words (the earliest on a tie), trimmed of blank edges; the chunk's first lines when
 * nothing matches (a vector hit). A result list shows where the match is, not the chunk's head.
 */
export function matchedSnippet(text: string, startLine: number, query: QueryWords, maxLines = 8, maxChars = 800): Snippet {
  const lines = text.split('\n');
  const prefixes = query.words.map((word) => word.slice(0, 3));
  const scores = lines.map((line) => (query.stems.size > 0 ? lineScore(line, query, prefixes) : 0));
  let bestStart = 0;
  let bestScore = -1;
  let windowScore = 0;
  for (let index = 0; index < lines.length; index++) {
    windowScore += scores[index] ?? 0;
    if (index >= maxLines) windowScore -= scores[index - maxLines] ?? 0;
    const start = Math.max(0, index - maxLines + 1);
    // Count a window once it is full, or at the chunk's end when the chunk is shorter than one.
    if (index - start + 1 < Math.min(maxLines, lines.length)) continue;
    if (windowScore > bestScore) {
      bestScore = windowScore;
      bestStart = start;
    }
  }
  // Start the window at its first matching line, so the match is not preceded by unrelated lines.
  if (bestScore > 0) while ((scores[bestStart] ?? 0) === 0 && bestStart < lines.length - 1) bestStart++;
  let end = Math.min(lines.length, bestStart + maxLines);
  let start = bestStart;
  while (start < end - 1 && !lines[start]?.trim()) start++;
  while (end - 1 > start && !lines[end - 1]?.trim()) end--;
  const chosen = lines.slice(start, end).map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line));
  const joined = chosen.join('\n');
  return { text: joined.length > maxChars ? `${joined.slice(0, maxChars)}…` : joined, line: startLine + start };
}
