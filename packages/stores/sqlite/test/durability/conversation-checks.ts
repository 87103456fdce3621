import type { ModelConversationMessage } from '@cairn/core';

/**
 * Problems that make a conversation ill-formed for providers: a tool call without a result in the
 * next message, or a result without a call just before it. Empty when it is well-formed.
 */
export function conversationProblems(messages: Array<Pick<ModelConversationMessage, 'role' | 'content'>>): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    const parts = Array.isArray(message.content) ? (message.content as Array<{ type: string; toolCallId?: string }>) : [];
    if (message.role === 'assistant') {
      const calls = parts.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId);
      if (calls.length === 0) return;
      const next = messages[index + 1];
      const answered = new Set(next?.role === 'tool' ? (next.content as Array<{ toolCallId: string }>).map((part) => part.toolCallId) : []);
      for (const call of calls) if (!answered.has(call as string)) problems.push(`message ${index}: tool call ${call} has no result`);
    }
    if (message.role === 'tool') {
      const previous = messages[index - 1];
      const called = new Set(previous?.role === 'assistant' ? (previous.content as Array<{ type: string; toolCallId?: string }>).filter((part) => part.type === 'tool-call').map((part) => part.toolCallId) : []);
      for (const part of parts) if (!called.has(part.toolCallId)) problems.push(`message ${index}: result ${part.toolCallId} answers no call`);
    }
  });
  return problems;
}

/** The text of a model message's content. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string; output?: { value?: unknown } }>)
    .map((part) => part.text ?? (part.output ? JSON.stringify(part.output.value) : ''))
    .join('');
}
