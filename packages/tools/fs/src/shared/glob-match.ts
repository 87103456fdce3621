import { ToolError } from '@cairn/core';

/**
 * A glob matcher that cannot hang. Model-given patterns are attacker-shaped input: regex-based
 * matchers (picomatch, minimatch) compile `*a*a*a*a*b` into a backtracking regular expression that
 * takes exponential time on a long file name. Here braces are expanded up front (bounded), and
 * each pattern is matched with the greedy wildcard algorithm — O(pattern x name) per path segment
 * and O(pattern segments x path segments) for `**` — whatever the input.
 *
 * Supported: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`/`[^x]`, `**` as a whole segment, `{a,b}` and
 * `{1..5}` (nested too). Not supported: extglobs such as `@(a|b)` (matched literally). `*` also
 * matches names starting with a dot (there is no hidden-file exception).
 */

type CharToken = { kind: 'literal'; char: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negate: boolean; ranges: Array<[string, string]> };
type SegmentToken = { kind: 'globstar' } | { kind: 'segment'; tokens: CharToken[] };

export const maxBraceExpansions = 256;

/** Expand `{a,b}` and `{1..3}` (first group first, recursively), refusing more than `limit` results. */
export function expandBraces(pattern: string, limit = maxBraceExpansions): string[] {
  let depth = 0;
  let open = -1;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '{') {
      if (depth === 0) open = index;
      depth++;
    } else if (char === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const alternatives = splitAlternatives(pattern.slice(open + 1, index));
        if (!alternatives) continue; // `{x}` without a comma or range is literal
        const prefix = pattern.slice(0, open);
        const rests = expandBraces(pattern.slice(index + 1), limit);
        const out: string[] = [];
        for (const alternative of alternatives) {
          for (const head of expandBraces(prefix + alternative, limit)) {
            for (const rest of rests) {
              out.push(head + rest);
              if (out.length > limit) throw new ToolError(`The glob pattern expands to more than ${limit} alternatives; simplify its braces.`);
            }
          }
        }
        return out;
      }
    }
  }
  return [pattern];
}

function splitAlternatives(body: string): string[] | undefined {
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (Math.abs(to - from) >= maxBraceExpansions) throw new ToolError(`The range {${body}} in the glob pattern is too large.`);
    const step = from <= to ? 1 : -1;
    const values: string[] = [];
    for (let value = from; value !== to + step; value += step) values.push(String(value));
    return values;
  }
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    if (body[index] === '{') depth++;
    else if (body[index] === '}') depth--;
    else if (body[index] === ',' && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  if (parts.length === 0) return undefined;
  parts.push(body.slice(start));
  return parts;
}

function parseSegment(segment: string): SegmentToken {
  if (segment === '**') return { kind: 'globstar' };
  const tokens: CharToken[] = [];
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === '*') {
      // Consecutive stars are one star (and `a**b` is `a*b`).
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '?') {
      tokens.push({ kind: 'any' });
    } else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      if (close === -1) {
        tokens.push({ kind: 'literal', char });
        continue;
      }
      let body = segment.slice(index + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      const ranges: Array<[string, string]> = [];
      for (let position = 0; position < body.length; position++) {
        if (body[position + 1] === '-' && position + 2 < body.length) {
          ranges.push([body[position]!, body[position + 2]!]);
          position += 2;
        } else {
          ranges.push([body[position]!, body[position]!]);
        }
      }
      tokens.push({ kind: 'class', negate, ranges });
      index = close;
    } else {
      tokens.push({ kind: 'literal', char });
    }
  }
  return { kind: 'segment', tokens };
}

function matchesChar(token: CharToken, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'literal') return token.char === char;
  if (token.kind === 'class') return token.ranges.some(([low, high]) => char >= low && char <= high) !== token.negate;
  return false;
}

/**
 * The greedy wildcard algorithm: on a mismatch, go back to the last star and let it swallow one
 * more item. Linear backtracking only, so O(tokens x items).
 */
function wildcardMatch<Token, Item>(tokens: Token[], items: Item[], isStar: (token: Token) => boolean, matchesOne: (token: Token, item: Item) => boolean): boolean {
  let tokenIndex = 0;
  let itemIndex = 0;
  let starToken = -1;
  let starItem = 0;
  while (itemIndex < items.length) {
    const token = tokens[tokenIndex];
    if (token !== undefined && isStar(token)) {
      starToken = tokenIndex++;
      starItem = itemIndex;
    } else if (token !== undefined && matchesOne(token, items[itemIndex]!)) {
      tokenIndex++;
      itemIndex++;
    } else if (starToken !== -1) {
      tokenIndex = starToken + 1;
      itemIndex = ++starItem;
    } else {
      return false;
    }
  }
  while (tokenIndex < tokens.length && isStar(tokens[tokenIndex]!)) tokenIndex++;
  return tokenIndex === tokens.length;
}

function matchName(tokens: CharToken[], name: string): boolean {
  return wildcardMatch(tokens, Array.from(name), (token) => token.kind === 'star', matchesChar);
}

/** Compile a glob (posix, relative) into a predicate over posix relative paths. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const compiled = expandBraces(pattern).map((expanded) => expanded.split('/').filter((segment, index, all) => segment !== '' || index === all.length - 1).map(parseSegment));
  return (path) => {
    const segments = path.split('/');
    return compiled.some((tokens) =>
      wildcardMatch(
        tokens,
        segments,
        (token) => token.kind === 'globstar',
        (token, segment) => token.kind === 'segment' && matchName(token.tokens, segment),
      ),
    );
  };
}
