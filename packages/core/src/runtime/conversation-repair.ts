import type { ModelMessage, ToolResultPart } from '../spec/language-model/v1/index.js';
import { interruptedToolText } from './background-run.js';

/**
 * Make a loaded conversation well-formed for every provider: each assistant tool call is answered
 * by a tool result. Calls left unanswered by a killed process get an aborted result.
 */
export function repairConversation(messages: ModelMessage[]): { messages: ModelMessage[]; repaired: number } {
  const result: ModelMessage[] = [];
  let repaired = 0;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    result.push(message);
    if (message.role !== 'assistant') continue;
    const calls = message.content.filter((part) => part.type === 'tool-call');
    if (calls.length === 0) continue;
    const next = messages[index + 1];
    const answered = new Set(next?.role === 'tool' ? next.content.map((part) => part.toolCallId) : []);
    const missing: ToolResultPart[] = calls
      .filter((call) => !answered.has(call.toolCallId))
      .map((call) => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'error-text', value: interruptedToolText },
      }));
    if (missing.length === 0) continue;
    repaired += missing.length;
    if (next?.role === 'tool') {
      result.push({ ...next, content: [...next.content, ...missing] });
      index++;
    } else {
      result.push({ role: 'tool', content: missing });
    }
  }
  return { messages: result, repaired };
}
