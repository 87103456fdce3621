import type { FinishReason } from '@cairn/core/spec';

/** Chat Completions `finish_reason` -> the unified finish reason, keeping the raw value. */
export function mapOpenAIChatFinishReason(raw: string | null | undefined): FinishReason {
  const value = raw ?? undefined;
  switch (value) {
    case 'stop':
      return { unified: 'stop', raw: value };
    case 'length':
      return { unified: 'length', raw: value };
    case 'content_filter':
      return { unified: 'content-filter', raw: value };
    // `function_call` is the pre-tools name some compatible servers still send.
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw: value };
    default:
      return { unified: 'other', raw: value };
  }
}

/**
 * Responses API: a completed response finishes with `stop` or `tool-calls` (the API has no finish
 * reason of its own); an incomplete one with the `incomplete_details.reason`.
 */
export function mapOpenAIResponsesFinishReason(input: {
  status: string | undefined;
  incompleteReason?: string | null | undefined;
  hasToolCalls: boolean;
}): FinishReason {
  if (input.status === 'incomplete') {
    const reason = input.incompleteReason ?? undefined;
    if (reason === 'max_output_tokens') return { unified: 'length', raw: reason };
    if (reason === 'content_filter') return { unified: 'content-filter', raw: reason };
    return { unified: 'other', raw: reason ?? 'incomplete' };
  }
  if (input.status === 'completed') return { unified: input.hasToolCalls ? 'tool-calls' : 'stop', raw: 'completed' };
  return { unified: 'other', raw: input.status };
}
