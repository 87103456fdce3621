import type { CallWarning, ModelMessage } from '@cairn/core/spec';
import { createMessageCache } from '@cairn/provider-utils';
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { dataUrl, imageUrl, toolCallArguments, toolResultText, unansweredToolCallText } from './convert-tool-result-output.js';

/** A tool result: its `tool` message, and the images that must follow as a user message. */
interface ConvertedToolResult {
  toolCallId: string;
  message: ChatCompletionMessageParam;
  images: ChatCompletionContentPart[];
}

/** What one message converts to, whatever its neighbours are: cached per message object. */
type ConvertedChatMessage =
  | { role: 'system' | 'user'; message: ChatCompletionMessageParam }
  | { role: 'assistant'; message: ChatCompletionMessageParam | undefined; toolCallIds: string[] }
  | { role: 'tool'; results: ConvertedToolResult[] };

/** Each message's conversion, shared by every later step of the conversation (read only). */
export const openAIChatMessageCache = createMessageCache<ConvertedChatMessage>();

function convertUser(content: Extract<ModelMessage, { role: 'user' }>['content']): ChatCompletionMessageParam {
  if (content.length === 1 && content[0]?.type === 'text') return { role: 'user', content: content[0].text };
  return {
    role: 'user',
    content: content.map((part): ChatCompletionContentPart => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: imageUrl(part) } })),
  };
}

function convertAssistant(content: Extract<ModelMessage, { role: 'assistant' }>['content']): ConvertedChatMessage {
  const text = content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: toolCallArguments(part.input) } });
  }
  const empty = text === '' && toolCalls.length === 0;
  return {
    role: 'assistant',
    message: empty ? undefined : { role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
    toolCallIds: toolCalls.map((call) => call.id),
  };
}

function convertToolResults(content: Extract<ModelMessage, { role: 'tool' }>['content']): ConvertedToolResult[] {
  return content.map((part) => {
    const { text, images } = toolResultText(part.output);
    return {
      toolCallId: part.toolCallId,
      message: { role: 'tool', tool_call_id: part.toolCallId, content: text },
      images:
        images.length === 0
          ? []
          : [{ type: 'text', text: `Images returned by tool call ${part.toolCallId}:` }, ...images.map((image): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: dataUrl(image) } }))],
    };
  });
}

function convertMessage(message: ModelMessage): ConvertedChatMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', message: { role: 'system', content: message.content } };
    case 'user':
      return { role: 'user', message: convertUser(message.content) };
    case 'assistant':
      return convertAssistant(message.content);
    case 'tool':
      return { role: 'tool', results: convertToolResults(message.content) };
  }
}

/**
 * Provider-neutral messages -> Chat Completions messages. Reasoning parts are dropped (the Chat
 * API takes no reasoning input); every assistant `tool_calls` entry gets a `tool` message (the API
 * rejects a conversation where one is missing), and results without a call are dropped. Each
 * message is converted once (cached); only the pairing of calls and results runs every step.
 */
export function convertToOpenAIChatMessages(prompt: ModelMessage[]): { messages: ChatCompletionMessageParam[]; warnings: CallWarning[] } {
  const messages: ChatCompletionMessageParam[] = [];
  const warnings: CallWarning[] = [];
  // Calls of the latest assistant message that still wait for their `tool` message.
  let pending = new Set<string>();
  let pendingImages: ChatCompletionContentPart[] = [];

  const closePendingCalls = () => {
    for (const toolCallId of pending) messages.push({ role: 'tool', tool_call_id: toolCallId, content: unansweredToolCallText });
    pending = new Set();
    // The Chat API has no images in tool messages: they follow as one user message.
    if (pendingImages.length > 0) {
      messages.push({ role: 'user', content: pendingImages });
      pendingImages = [];
    }
  };

  for (const message of prompt) {
    if (message.role !== 'tool') closePendingCalls();
    const converted = openAIChatMessageCache.get(message, convertMessage);
    switch (converted.role) {
      case 'system':
      case 'user':
        messages.push(converted.message);
        break;
      case 'assistant':
        for (const toolCallId of converted.toolCallIds) pending.add(toolCallId);
        if (converted.message) messages.push(converted.message);
        break;
      case 'tool':
        for (const result of converted.results) {
          if (!pending.has(result.toolCallId)) {
            warnings.push({ type: 'other', message: `Dropped the result of tool call ${result.toolCallId}: no assistant message called it.` });
            continue;
          }
          pending.delete(result.toolCallId);
          messages.push(result.message);
          pendingImages.push(...result.images);
        }
        break;
    }
  }
  closePendingCalls();
  return { messages, warnings };
}
