import type { LanguageModelV1Usage } from '@cairn/core/spec';

/** The usage fields of `message_start.message.usage` and `message_delta.usage`. */
export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  [key: string]: unknown;
}

/**
 * Anthropic reports `input_tokens` WITHOUT the cached part, so the total input is
 * input + cache read + cache write. Reasoning tokens are inside `output_tokens`.
 */
export function mapAnthropicUsage(usage: AnthropicUsageLike | undefined): LanguageModelV1Usage {
  const noCache = usage?.input_tokens ?? undefined;
  const cacheRead = usage?.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage?.cache_creation_input_tokens ?? undefined;
  const anyInput = noCache !== undefined || cacheRead !== undefined || cacheWrite !== undefined;
  const output = usage?.output_tokens ?? undefined;
  // Newer API versions report the thinking share of the output (`output_tokens_details.thinking_tokens`).
  const details = usage?.output_tokens_details as { thinking_tokens?: number } | null | undefined;
  const reasoning = typeof details?.thinking_tokens === 'number' ? details.thinking_tokens : undefined;
  return {
    inputTokens: {
      total: anyInput ? (noCache ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0) : undefined,
      noCache,
      cacheRead,
      cacheWrite,
    },
    outputTokens: { total: output, text: output !== undefined && reasoning !== undefined ? output - reasoning : undefined, reasoning },
    raw: usage,
  };
}

/** `message_delta` usage is cumulative; a field it leaves out (or sends as null) keeps the `message_start` value. */
export function mergeAnthropicUsage(start: AnthropicUsageLike | undefined, delta: AnthropicUsageLike | undefined): AnthropicUsageLike {
  const merged: AnthropicUsageLike = { ...(start ?? {}) };
  for (const [key, value] of Object.entries(delta ?? {})) {
    if (value !== null && value !== undefined) merged[key] = value;
  }
  return merged;
}
