import type { AutoReviewVerdict } from './auto-review.js';

const maximumReasonLength = 500;

/**
 * Read the reviewer's answer: one `{"decision":"allow"|"block","reason":"..."}` object, alone or
 * with text or code fences around it. No such object, or objects that disagree, is `unavailable`:
 * a guess in either direction would be the reviewer's decision, not the model's.
 */
export function parseReviewAnswer(text: string): AutoReviewVerdict {
  const verdicts = jsonObjectsIn(text).flatMap((value) => {
    const verdict = verdictOf(value);
    return verdict ? [verdict] : [];
  });
  const decisions = new Set(verdicts.map((verdict) => verdict.decision));
  if (verdicts.length === 0) return { decision: 'unavailable', reason: `the reviewer's answer was not the expected JSON (${preview(text)})` };
  if (decisions.size > 1) return { decision: 'unavailable', reason: `the reviewer's answer both allowed and blocked the call (${preview(text)})` };
  return verdicts[0] as AutoReviewVerdict;
}

function verdictOf(value: unknown): AutoReviewVerdict | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { decision, reason } = value as { decision?: unknown; reason?: unknown };
  if (typeof decision !== 'string') return undefined;
  const normalized = decision.trim().toLowerCase();
  if (normalized !== 'allow' && normalized !== 'block') return undefined;
  const text = typeof reason === 'string' && reason.trim() ? reason.trim().slice(0, maximumReasonLength) : undefined;
  if (normalized === 'allow') return { decision: 'allow', reason: text ?? 'the reviewer gave no reason' };
  return { decision: 'deny', reason: text ?? 'the reviewer gave no reason' };
}

/** Every top-level `{...}` in the text that parses as JSON, in order (strings and escapes respected). */
function jsonObjectsIn(text: string): unknown[] {
  const found: unknown[] = [];
  let index = text.indexOf('{');
  while (index !== -1) {
    const end = matchingBrace(text, index);
    if (end === -1) {
      // An unmatched brace in prose before the answer: look for the answer after it.
      index = text.indexOf('{', index + 1);
      continue;
    }
    try {
      found.push(JSON.parse(text.slice(index, end + 1)));
      index = text.indexOf('{', end + 1);
    } catch {
      index = text.indexOf('{', index + 1);
    }
  }
  return found;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth++;
    else if (character === '}' && --depth === 0) return index;
  }
  return -1;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return 'an empty answer';
  return flat.length > 120 ? `"${flat.slice(0, 120)}..."` : `"${flat}"`;
}
