import type { AnthropicMessage } from './convert-to-anthropic-messages.js';

/** The API allows at most four `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface CacheableRequest {
  system: Array<{ cache_control?: { type: 'ephemeral' } }>;
  tools: Array<{ cache_control?: { type: 'ephemeral' } }>;
  messages: AnthropicMessage[];
}

const ephemeral = { type: 'ephemeral' } as const;

/**
 * Marks the stable prefix and the conversation tail as cache breakpoints: the last tool (tools
 * come first in the cache order), the last system block, then the last block of the newest user
 * turn and, with the one breakpoint left, of the user turn before it — so the next request still
 * finds the prefix this one wrote even when the newest turn changed. Thinking blocks cannot carry
 * cache_control, but they never end a user turn.
 *
 * The request's arrays get a marked copy of the block in place of the block: the blocks themselves
 * are shared with later requests (converted once per message), and which block is last changes
 * from one request to the next.
 */
export function applyAnthropicCacheBreakpoints(request: CacheableRequest): number {
  let used = 0;
  if (markLast(request.tools)) used += 1;
  if (markLast(request.system)) used += 1;
  let userTurns = 0;
  for (let index = request.messages.length - 1; index >= 0 && used < MAX_CACHE_BREAKPOINTS && userTurns < 2; index -= 1) {
    const message = request.messages[index]!;
    if (message.role !== 'user') continue;
    const block = message.content[message.content.length - 1];
    if (!block || block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    message.content[message.content.length - 1] = { ...block, cache_control: ephemeral };
    used += 1;
    userTurns += 1;
  }
  return used;
}

function markLast(blocks: Array<{ cache_control?: { type: 'ephemeral' } }>): boolean {
  const last = blocks[blocks.length - 1];
  if (!last) return false;
  blocks[blocks.length - 1] = { ...last, cache_control: ephemeral };
  return true;
}
