import type { FinishReason } from '@cairn/core/spec';

/**
 * Anthropic stop reasons in the unified vocabulary. `pause_turn` (a server tool paused a long turn)
 * maps to `other`: the caller may send the response back as-is to let the model continue.
 */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  const raw = stopReason ?? undefined;
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    default:
      return { unified: 'other', raw };
  }
}
