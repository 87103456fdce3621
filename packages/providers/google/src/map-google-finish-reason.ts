import type { FinishReason } from '@cairn/core/spec';

const contentFilter = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);
const error = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MISSING_THOUGHT_SIGNATURE', 'MALFORMED_RESPONSE']);

/**
 * Gemini finish reasons in the unified vocabulary. Gemini says STOP also when it called functions,
 * so `hasToolCalls` turns that into `tool-calls`. A prompt blocked before any candidate
 * (`promptFeedback.blockReason`) is passed as the raw value and maps to `content-filter`.
 */
export function mapGoogleFinishReason(finishReason: string | undefined, hasToolCalls: boolean, blockReason?: string): FinishReason {
  if (!finishReason && blockReason) return { unified: 'content-filter', raw: blockReason };
  const raw = finishReason;
  if (finishReason === 'STOP') return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw };
  if (finishReason === 'MAX_TOKENS') return { unified: 'length', raw };
  if (finishReason && contentFilter.has(finishReason)) return { unified: 'content-filter', raw };
  if (finishReason && error.has(finishReason)) return { unified: 'error', raw };
  return { unified: 'other', raw };
}
