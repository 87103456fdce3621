import type { ModelMessage, ToolModelMessage } from '../spec/language-model/v1/index.js';
import type { RunMachineContext } from './run-machine-types.js';
import { turnToolCalls } from './turn-state.js';
import { turnToAssistantMessage } from './turn-to-message.js';

const abortedResult = 'The run was cancelled before this tool call finished; it was aborted.';

/**
 * The conversation after a cancel, by the state it hit: before a model call nothing is added; mid
 * stream the partial text is kept (no tool calls); while tools ran or waited for approval, the
 * calls stay with the results they got and the others get an aborted result, so no call is left
 * without a result. A cancel while a switch waited comes after the step's results were added.
 */
export function interruptedConversation(context: RunMachineContext): ModelMessage[] {
  const state = context.interruptedIn;
  if (state === 'sampling') {
    const partial = turnToAssistantMessage(context.sink.current, { includeToolCalls: false });
    return partial ? [...context.messages, partial] : context.messages;
  }
  if (state !== 'acting' && state !== 'awaitingApproval') return context.messages;
  const calls = turnToolCalls(context.turn);
  if (calls.length === 0 || stepResultsAdded(context, calls[0]?.toolCallId)) return context.messages;
  const assistant = turnToAssistantMessage(context.turn, { includeToolCalls: true });
  const toolMessage: ToolModelMessage = {
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: context.outcomes[call.toolCallId]?.output ?? { type: 'error-text', value: abortedResult },
    })),
  };
  return [...context.messages, ...(assistant ? [assistant] : []), toolMessage];
}

function stepResultsAdded(context: RunMachineContext, firstCallId: string | undefined): boolean {
  const last = context.messages[context.messages.length - 1];
  return last?.role === 'tool' && last.content.some((part) => part.toolCallId === firstCallId);
}
