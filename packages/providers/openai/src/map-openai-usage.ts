import type { LanguageModelV1Usage } from '@cairn/core/spec';

interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

interface ResponsesUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** Usage when the provider reported none (a compatible server that ignores `stream_options`). */
export function emptyUsage(): LanguageModelV1Usage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}

function buildUsage(
  input: number | null | undefined,
  cached: number | null | undefined,
  output: number | null | undefined,
  reasoning: number | null | undefined,
  raw: unknown,
): LanguageModelV1Usage {
  const inputTotal = input ?? undefined;
  const cacheRead = cached ?? undefined;
  const outputTotal = output ?? undefined;
  const reasoningTokens = reasoning ?? undefined;
  return {
    inputTokens: {
      total: inputTotal,
      // OpenAI's prompt_tokens include the cached ones; no-cache is the rest.
      noCache: inputTotal === undefined ? undefined : inputTotal - (cacheRead ?? 0),
      cacheRead,
      // OpenAI caches automatically and bills no cache writes.
      cacheWrite: undefined,
    },
    outputTokens: {
      total: outputTotal,
      text: outputTotal === undefined ? undefined : outputTotal - (reasoningTokens ?? 0),
      reasoning: reasoningTokens,
    },
    raw,
  };
}

export function mapOpenAIChatUsage(usage: ChatUsage | null | undefined): LanguageModelV1Usage {
  if (!usage) return emptyUsage();
  return buildUsage(
    usage.prompt_tokens,
    usage.prompt_tokens_details?.cached_tokens,
    usage.completion_tokens,
    usage.completion_tokens_details?.reasoning_tokens,
    usage,
  );
}

export function mapOpenAIResponsesUsage(usage: ResponsesUsage | null | undefined): LanguageModelV1Usage {
  if (!usage) return emptyUsage();
  return buildUsage(
    usage.input_tokens,
    usage.input_tokens_details?.cached_tokens,
    usage.output_tokens,
    usage.output_tokens_details?.reasoning_tokens,
    usage,
  );
}
