import { commandGlobToRegExp } from './permission-rules.js';
import { unknownText } from './shell-words.js';

/**
 * How a shell rule (`rm*`) relates to a reading of a command whose pieces may be known only at run
 * time (`r<unknown>m victim`, see `ShellWord.pattern`):
 * - `definite`: every command the reading can stand for matches the rule;
 * - `possible`: some command it can stand for matches the rule (fail closed: it could be that one);
 * - `none`: no command it can stand for matches.
 */
export type RuleMatch = 'definite' | 'possible' | 'none';

/** The rule glob's alternatives as star patterns: `npm run test:*` is `npm run test` or `npm run test <any>`. */
function ruleAlternatives(specifier: string): string[] {
  if (specifier.endsWith(':*')) {
    const prefix = specifier.slice(0, -2);
    return [prefix, `${prefix} *`];
  }
  return [specifier];
}

export function matchCommandRule(specifier: string, reading: string): RuleMatch {
  // Sound for containment: a rule `*` that swallows the unknown piece swallows whatever it becomes.
  if (commandGlobToRegExp(specifier).test(reading)) return 'definite';
  if (!reading.includes(unknownText)) return 'none';
  return ruleAlternatives(specifier).some((alternative) => starPatternsIntersect(alternative, reading)) ? 'possible' : 'none';
}

/**
 * Can one string match both patterns? `left` uses `*` for "any text", `right` uses `unknownText`.
 * A dynamic-programming walk over both; a wildcard on either side may absorb the other side's next
 * character (or wildcard) or nothing. Patterns are short, so the quadratic table is cheap.
 */
export function starPatternsIntersect(left: string, right: string): boolean {
  const leftTokens = [...left].map((character) => (character === '*' ? undefined : character));
  const rightTokens = [...right].map((character) => (character === unknownText ? undefined : character));
  const width = rightTokens.length + 1;
  const seen = new Set<number>();
  const stack: Array<[number, number]> = [[0, 0]];
  while (stack.length > 0) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === leftTokens.length && j === rightTokens.length) return true;
    const leftAny = i < leftTokens.length && leftTokens[i] === undefined;
    const rightAny = j < rightTokens.length && rightTokens[j] === undefined;
    if (leftAny) {
      stack.push([i + 1, j]);
      if (j < rightTokens.length) stack.push([i, j + 1]);
    }
    if (rightAny) {
      stack.push([i, j + 1]);
      if (i < leftTokens.length) stack.push([i + 1, j]);
    }
    if (!leftAny && !rightAny && i < leftTokens.length && j < rightTokens.length && leftTokens[i] === rightTokens[j]) stack.push([i + 1, j + 1]);
  }
  return false;
}
