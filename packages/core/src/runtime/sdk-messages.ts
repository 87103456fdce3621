import type { AssistantContentBlock, ConversationStep, ConversationTurn, RunEvent, SDKMessage } from '../spec/events/v1/index.js';
import type { TurnState } from '../machine/turn-state.js';
import { parseToolInput } from '../machine/turn-to-message.js';

/** The `assistant` SDK message of one step: its text and tool_use blocks. */
export function assistantBlocks(turn: TurnState): AssistantContentBlock[] {
  const blocks: AssistantContentBlock[] = [];
  for (const block of turn.blocks) {
    if (block.kind === 'text' && block.text.length > 0) blocks.push({ type: 'text', text: block.text });
    if (block.kind === 'tool-call') blocks.push({ type: 'tool_use', id: block.toolCallId, name: block.toolName, input: parseToolInput(block.inputText).value });
  }
  return blocks;
}

/** Rebuild `run.conversation()` from a run's event log, so it works for stored and remote runs too. */
export function conversationFromEvents(events: RunEvent[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  let current: Extract<ConversationTurn, { type: 'agentConversationTurn' }> | undefined;
  const calls = new Map<string, Extract<ConversationStep, { type: 'toolCall' }>>();
  for (const event of events) {
    if (event.kind !== 'message') continue;
    const message: SDKMessage = event.message;
    if (message.type === 'user') {
      current = { type: 'agentConversationTurn', userMessage: message.message.content, steps: [] };
      turns.push(current);
      continue;
    }
    if (!current) continue;
    if (message.type === 'assistant') {
      const text = message.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (text) current.steps.push({ type: 'assistantMessage', text });
    } else if (message.type === 'thinking') {
      current.steps.push({ type: 'thinkingMessage', text: message.text });
    } else if (message.type === 'tool_call') {
      const existing = calls.get(message.call_id);
      if (existing) {
        if (message.result !== undefined) existing.result = message.result;
        existing.isError = message.status === 'error';
      } else {
        const step: Extract<ConversationStep, { type: 'toolCall' }> = { type: 'toolCall', callId: message.call_id, name: message.name, args: message.args };
        if (message.result !== undefined) step.result = message.result;
        if (message.status === 'error') step.isError = true;
        calls.set(message.call_id, step);
        current.steps.push(step);
      }
    }
  }
  return turns;
}
