import { parseToolInput } from '../machine/turn-to-message.js';
import type { TurnState } from '../machine/turn-state.js';
import type { InteractionUpdate, RunEvent, ToolCall } from '../spec/events/v1/index.js';
import type { LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';
import type { ToolCallOutcome } from './tool-runner.js';

/** The tool id (`read`, `shell`, a custom tool's name) of a model-facing tool name. */
export type ToolIdOf = (toolName: string) => string;

const update = (value: InteractionUpdate): RunEvent => ({ kind: 'update', update: value });

/** The fine-grained updates one stream part produces (text, thinking, tool calls as they stream). */
export function updatesForStreamPart(part: LanguageModelV1StreamPart, turn: TurnState, toolIdOf: ToolIdOf): RunEvent[] {
  switch (part.type) {
    case 'text-delta':
      return part.delta ? [update({ type: 'text-delta', text: part.delta })] : [];
    case 'reasoning-delta':
      return part.delta ? [update({ type: 'thinking-delta', text: part.delta })] : [];
    case 'reasoning-end': {
      const block = turn.blocks.find((candidate) => candidate.kind === 'reasoning' && candidate.id === part.id);
      const duration = block?.kind === 'reasoning' && block.endedAt ? block.endedAt - block.startedAt : 0;
      return [update({ type: 'thinking-completed', thinkingDurationMs: duration })];
    }
    case 'tool-input-start':
      return [partialToolCall(part.id, part.toolName, '', '', toolIdOf)];
    case 'tool-input-delta': {
      const pending = turn.pendingToolInputs[part.id];
      return pending ? [partialToolCall(part.id, pending.toolName, pending.text, part.delta, toolIdOf)] : [];
    }
    case 'tool-call': {
      // Invalid JSON stays text; the tool runner answers it with an error result.
      const args = parseToolInput(part.input).value;
      const toolCall: ToolCall = { type: toolIdOf(part.toolName), name: part.toolName, callId: part.toolCallId, args, status: 'running' };
      return [update({ type: 'tool-call-started', callId: part.toolCallId, modelCallId: part.toolCallId, toolCall })];
    }
    default:
      return [];
  }
}

function partialToolCall(callId: string, toolName: string, argsText: string, delta: string, toolIdOf: ToolIdOf): RunEvent {
  return update({ type: 'partial-tool-call', callId, modelCallId: callId, toolCall: { type: toolIdOf(toolName), name: toolName, callId, argsText }, argsTextDelta: delta });
}

/** A finished call as updates and the conversation show it. */
export function completedToolCall(outcome: ToolCallOutcome, toolIdOf: ToolIdOf): ToolCall {
  return {
    type: toolIdOf(outcome.toolName),
    name: outcome.toolName,
    callId: outcome.toolCallId,
    args: outcome.args,
    status: outcome.isError ? 'error' : 'completed',
    result: outcome.text,
    isError: outcome.isError,
    ...(outcome.truncated ? { truncated: { result: true } } : {}),
    ...(outcome.structuredContent === undefined ? {} : { structuredContent: outcome.structuredContent }),
  };
}
