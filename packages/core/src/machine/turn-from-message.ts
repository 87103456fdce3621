import type { AssistantModelMessage } from '../spec/language-model/v1/index.js';
import type { TurnBlock, TurnState } from './turn-state.js';

/**
 * The turn an assistant message was made from: the inverse of `turnToAssistantMessage` for a
 * complete turn. A new process continuing a run rebuilds the turn whose tool calls wait this way.
 */
export function turnFromAssistantMessage(message: AssistantModelMessage): TurnState {
  const blocks: TurnBlock[] = message.content.map((part, index): TurnBlock => {
    const meta = part.providerMetadata ? { providerMetadata: part.providerMetadata } : {};
    if (part.type === 'text') return { kind: 'text', id: `text-${index}`, text: part.text, ...meta };
    if (part.type === 'reasoning') {
      return {
        kind: 'reasoning', id: `reasoning-${index}`, text: part.text, startedAt: 0, endedAt: 0, ...meta,
        ...(part.signature === undefined ? {} : { signature: part.signature }),
        ...(part.redactedData === undefined ? {} : { redactedData: part.redactedData }),
      };
    }
    return { kind: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, inputText: typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {}), ...meta };
  });
  return { blocks, pendingToolInputs: {}, finishReason: { unified: 'tool-calls', raw: undefined } };
}
