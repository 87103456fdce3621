/** Reading a Chat Completions request body the way a scripted fake model decides its next turn. */
export type ChatRequest = Record<string, any>;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export function messagesOf(body: ChatRequest): ChatMessage[] {
  return (body.messages ?? []) as ChatMessage[];
}

export function lastMessage(body: ChatRequest): ChatMessage | undefined {
  return messagesOf(body).at(-1);
}

/** The text of a message, whether its content is a string or a list of parts. */
export function textOf(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The text of the last user message: which prompt of the test this request answers. */
export function lastUserText(body: ChatRequest): string {
  return textOf(messagesOf(body).findLast((message) => message.role === 'user'));
}

/** Whether the request comes right after the user's message (no tool result yet in this turn). */
export function isFirstStep(body: ChatRequest): boolean {
  return lastMessage(body)?.role === 'user';
}

export function offeredTools(body: ChatRequest): string[] {
  return ((body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
}

/** The tool results the model has read since the user's last message. */
export function toolResultsOfTurn(body: ChatRequest): string[] {
  const messages = messagesOf(body);
  const start = messages.findLastIndex((message) => message.role === 'user');
  return messages.slice(start + 1).filter((message) => message.role === 'tool').map(textOf);
}
