import type { TokenUsage } from '../spec/events/v1/index.js';
import type { LanguageModelV1Usage } from '../spec/language-model/v1/index.js';

export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 };
}

/** Provider usage -> the SDK's TokenUsage. inputTokens is the whole prompt, cached parts included. */
export function toTokenUsage(usage: LanguageModelV1Usage | undefined): TokenUsage {
  if (!usage) return emptyUsage();
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  const input = usage.inputTokens.total ?? (usage.inputTokens.noCache ?? 0) + cacheRead + cacheWrite;
  const output = usage.outputTokens.total ?? (usage.outputTokens.text ?? 0) + (usage.outputTokens.reasoning ?? 0);
  const result: TokenUsage = { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, totalTokens: input + output };
  if (usage.outputTokens.reasoning !== undefined) result.reasoningTokens = usage.outputTokens.reasoning;
  return result;
}

export function addUsage(left: TokenUsage, right: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cacheReadTokens: left.cacheReadTokens + right.cacheReadTokens,
    cacheWriteTokens: left.cacheWriteTokens + right.cacheWriteTokens,
    totalTokens: left.totalTokens + right.totalTokens,
  };
  if (left.reasoningTokens !== undefined || right.reasoningTokens !== undefined) {
    sum.reasoningTokens = (left.reasoningTokens ?? 0) + (right.reasoningTokens ?? 0);
  }
  return sum;
}

/** `left` without `right`, never below zero (a parent run's own tokens: its total minus its subagents'). */
export function subtractUsage(left: TokenUsage, right: TokenUsage): TokenUsage {
  const less = (a: number, b: number) => Math.max(0, a - b);
  const rest: TokenUsage = {
    inputTokens: less(left.inputTokens, right.inputTokens),
    outputTokens: less(left.outputTokens, right.outputTokens),
    cacheReadTokens: less(left.cacheReadTokens, right.cacheReadTokens),
    cacheWriteTokens: less(left.cacheWriteTokens, right.cacheWriteTokens),
    totalTokens: less(left.totalTokens, right.totalTokens),
  };
  if (left.reasoningTokens !== undefined) rest.reasoningTokens = less(left.reasoningTokens, right.reasoningTokens ?? 0);
  return rest;
}
