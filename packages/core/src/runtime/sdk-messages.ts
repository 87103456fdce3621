import type { AgentConversationTurn, AssistantContentBlock, ConversationTurn, RunEvent, SDKMessage, SDKToolUseMessage, ToolCall } from '../spec/events/v1/index.js';
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
  let current: AgentConversationTurn | undefined;
  const calls = new Map<string, { type: 'toolCall'; message: ToolCall }>();
  // The completed update carries the whole call (its tool id, result, error flag); it comes before
  // the completed tool_call message, and a refused call has no running message before it.
  const completed = new Map<string, ToolCall>();
  for (const event of events) {
    if (event.kind === 'update') {
      if (event.update.type === 'tool-call-completed') {
        completed.set(event.update.callId, event.update.toolCall);
        const step = calls.get(event.update.callId);
        if (step) step.message = event.update.toolCall;
      }
      continue;
    }
    const message: SDKMessage = event.message;
    if (message.type === 'user') {
      current = { userMessage: { text: message.message.content.map((block) => block.text).join('') }, steps: [] };
      turns.push({ type: 'agentConversationTurn', turn: current });
      continue;
    }
    if (!current) continue;
    if (message.type === 'assistant') {
      const text = message.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (text) current.steps.push({ type: 'assistantMessage', message: { text } });
    } else if (message.type === 'thinking') {
      current.steps.push({ type: 'thinkingMessage', message: { text: message.text, ...(message.thinking_duration_ms === undefined ? {} : { thinkingDurationMs: message.thinking_duration_ms }) } });
    } else if (message.type === 'tool_call') {
      const existing = calls.get(message.call_id);
      if (existing) {
        if (existing.message.status === 'running') existing.message = { ...existing.message, ...toolCallOfMessage(message) };
        continue;
      }
      const step = { type: 'toolCall' as const, message: completed.get(message.call_id) ?? toolCallOfMessage(message) };
      calls.set(message.call_id, step);
      current.steps.push(step);
    }
  }
  return turns;
}

function toolCallOfMessage(message: SDKToolUseMessage): ToolCall {
  return {
    type: message.name,
    name: message.name,
    callId: message.call_id,
    args: message.args,
    status: message.status,
    ...(typeof message.result === 'string' ? { result: message.result } : {}),
    ...(message.status === 'running' ? {} : { isError: message.status === 'error' }),
    ...(message.truncated ? { truncated: message.truncated } : {}),
  };
}
