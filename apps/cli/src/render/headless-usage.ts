import type { TokenUsage } from '@cairn/sdk';

/** Token counts in Claude Code's (the Anthropic API's) names. */
export interface SnakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/**
 * Cairn's usage as Claude Code reports it. Cairn's `inputTokens` is the whole prompt with its cached
 * parts; the Anthropic API's `input_tokens` is only the part that was neither read from nor written
 * to the cache, so a consumer that adds the three input figures gets the prompt size either way.
 */
export function snakeUsage(usage: TokenUsage | undefined): SnakeUsage {
  if (!usage) return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens),
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
  };
}

export function addSnakeUsage(left: SnakeUsage, right: SnakeUsage): SnakeUsage {
  return {
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
    cache_read_input_tokens: left.cache_read_input_tokens + right.cache_read_input_tokens,
    cache_creation_input_tokens: left.cache_creation_input_tokens + right.cache_creation_input_tokens,
  };
}
