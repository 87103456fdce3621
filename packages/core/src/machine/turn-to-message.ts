import type { JSONValue } from '../spec/json.js';
import type { AssistantModelMessage } from '../spec/language-model/v1/index.js';
import type { TurnState } from './turn-state.js';

export interface ParsedToolInput {
  ok: boolean;
  value: JSONValue;
  error?: string;
}

/** Parse a tool call's JSON text; an empty text means no arguments (`{}`), as several APIs send it. */
export function parseToolInput(text: string): ParsedToolInput {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as JSONValue };
  } catch (error) {
    return { ok: false, value: text, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The assistant message a turn adds to the conversation. With `includeToolCalls: false` (a failed
 * or cancelled stream) tool calls are dropped, so no call stays without a result.
 */
export function turnToAssistantMessage(turn: TurnState, options: { includeToolCalls: boolean }): AssistantModelMessage | undefined {
  const content: AssistantModelMessage['content'] = [];
  for (const block of turn.blocks) {
    if (block.kind === 'text') {
      if (block.text.length > 0) content.push({ type: 'text', text: block.text, ...(block.providerMetadata ? { providerMetadata: block.providerMetadata } : {}) });
    } else if (block.kind === 'reasoning') {
      // Unsigned reasoning of a turn that did not complete cannot be replayed to providers that verify it.
      if (!options.includeToolCalls && !block.signature && !block.redactedData && block.endedAt === undefined) continue;
      content.push({
        type: 'reasoning',
        text: block.text,
        ...(block.signature === undefined ? {} : { signature: block.signature }),
        ...(block.redactedData === undefined ? {} : { redactedData: block.redactedData }),
        ...(block.providerMetadata ? { providerMetadata: block.providerMetadata } : {}),
      });
    } else if (options.includeToolCalls) {
      content.push({
        type: 'tool-call',
        toolCallId: block.toolCallId,
        toolName: block.toolName,
        input: parseToolInput(block.inputText).value,
        ...(block.providerMetadata ? { providerMetadata: block.providerMetadata } : {}),
      });
    }
  }
  return content.length === 0 ? undefined : { role: 'assistant', content };
}
