import type { LanguageModelV1FunctionTool, ModelMessage } from '../spec/language-model/v1/index.js';
import { lazyRequire } from '../util/lazy-require.js';

// The tokenizer's tables cost ~250 ms and ~60 MB to load, so it is loaded only when a conversation
// gets near its budget: below that, a chars/4 estimate decides (see quickCheckShare).
const loadTokenizer = lazyRequire<{ countTokens(text: string): number }>('gpt-tokenizer');

/**
 * Under this share of the budget by the chars/4 estimate, no exact count is needed: real token
 * counts stay within ~1.35x of it even for dense code, so the request is still inside the budget.
 */
export const quickCheckShare = 0.6;

// Estimates use the o200k BPE of gpt-tokenizer: exact for recent OpenAI models, within ~10-20 % for
// Claude and Gemini, which is what a budget check needs. Very long strings are counted as chars/4
// so one huge tool output cannot stall a step.
const exactLimit = 50_000;
const perMessageOverhead = 4;
/** What one image is counted as: providers bill images by size, ~1k tokens is a typical screenshot. */
export const perImageTokens = 1_000;
const exactCache = new WeakMap<object, number>();
const quickCache = new WeakMap<object, number>();

/** Tokens of a text: the o200k count with `exact`, else chars/4. */
export function estimateTextTokens(text: string, exact = true): number {
  if (text.length === 0) return 0;
  return !exact || text.length > exactLimit ? Math.ceil(text.length / 4) : countExact(text);
}

// BPE merging is quadratic in the length of one pre-tokenized word: 40 000 characters without a
// space (base64, a minified line, a row of emoji) take seconds. Such runs are counted in pieces,
// which costs at most one token per piece more than the true count and stays linear.
const hasLongRun = /\S{256}/;
const longRun = /\S{256,}/g;
const runPiece = 128;

function countExact(text: string): number {
  const { countTokens } = loadTokenizer();
  if (!hasLongRun.test(text)) return countTokens(text);
  let tokens = 0;
  let last = 0;
  for (const match of text.matchAll(longRun)) {
    tokens += countTokens(text.slice(last, match.index));
    for (let start = 0; start < match[0].length; ) {
      let end = Math.min(match[0].length, start + runPiece);
      // Never split a surrogate pair between pieces.
      if (end < match[0].length && /[\uD800-\uDBFF]/.test(match[0].charAt(end - 1))) end++;
      tokens += countTokens(match[0].slice(start, end));
      start = end;
    }
    last = match.index + match[0].length;
  }
  return tokens + countTokens(text.slice(last));
}

/** Estimated tokens of one message; cached per message object (messages are never mutated). */
export function estimateMessageTokens(message: ModelMessage, exact = true): number {
  const cache = exact ? exactCache : quickCache;
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  let tokens = perMessageOverhead;
  if (typeof message.content === 'string') tokens += estimateTextTokens(message.content, exact);
  else {
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          tokens += estimateTextTokens(part.text, exact);
          break;
        case 'image':
          tokens += perImageTokens;
          break;
        case 'tool-call':
          tokens += estimateTextTokens(part.toolName, exact) + estimateTextTokens(typeof part.input === 'string' ? part.input : JSON.stringify(part.input), exact);
          break;
        case 'tool-result':
          tokens += estimateTextTokens(toolOutputText(part.output), exact);
          break;
      }
    }
  }
  cache.set(message, tokens);
  return tokens;
}

export function toolOutputText(output: { type: string; value: unknown }): string {
  if (output.type === 'text' || output.type === 'error-text') return String(output.value);
  if (output.type === 'content' && Array.isArray(output.value)) {
    return output.value.map((item: { type: string; text?: string }) => (item.type === 'text' ? (item.text ?? '') : '[image]')).join('\n');
  }
  return JSON.stringify(output.value);
}

export function estimateMessagesTokens(messages: readonly ModelMessage[], exact = true): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message, exact);
  return total;
}

export function estimateToolsTokens(tools: readonly LanguageModelV1FunctionTool[], exact = true): number {
  return estimateTextTokens(JSON.stringify(tools), exact);
}

/**
 * Tokens of the next request: the provider's count for the previous request of this run (its
 * `inputTokens`, cached parts included) plus an estimate of what was appended since; without a
 * previous request (first step, after a compaction) everything is estimated.
 */
export class ContextTokenMeter {
  private last: { messages: readonly ModelMessage[]; inputTokens: number } | undefined;

  /** Record the request just sent and the input tokens the provider reported for it. */
  recordRequest(messages: readonly ModelMessage[], inputTokens: number): void {
    this.last = inputTokens > 0 ? { messages, inputTokens } : undefined;
  }

  reset(): void {
    this.last = undefined;
  }

  estimate(input: { systemPrompt: string; tools: readonly LanguageModelV1FunctionTool[]; messages: readonly ModelMessage[] }, exact = true): { tokens: number; source: 'usage+estimate' | 'estimate' } {
    const last = this.last;
    const extendsLast = last && input.messages.length >= last.messages.length && last.messages.every((message, index) => input.messages[index] === message);
    if (last && extendsLast) return { tokens: last.inputTokens + estimateMessagesTokens(input.messages.slice(last.messages.length), exact), source: 'usage+estimate' };
    return { tokens: estimateTextTokens(input.systemPrompt, exact) + estimateToolsTokens(input.tools, exact) + estimateMessagesTokens(input.messages, exact), source: 'estimate' };
  }
}
