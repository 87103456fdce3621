import type { CallWarning, ModelMessage } from '@cairn/core';
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { dataUrl, imageUrl, toolCallArguments, toolResultText, unansweredToolCallText } from './convert-tool-result-output.js';

/**
 * Provider-neutral messages -> Chat Completions messages. Pure. Reasoning parts are dropped (the
 * Chat API takes no reasoning input); every assistant `tool_calls` entry gets a `tool` message
 * (the API rejects a conversation where one is missing), and results without a call are dropped.
 */
export function convertToOpenAIChatMessages(prompt: ModelMessage[]): { messages: ChatCompletionMessageParam[]; warnings: CallWarning[] } {
  const messages: ChatCompletionMessageParam[] = [];
  const warnings: CallWarning[] = [];
  // Calls of the latest assistant message that still wait for their `tool` message.
  let pending = new Map<string, string>();
  let pendingImages: ChatCompletionContentPart[] = [];

  const closePendingCalls = () => {
    for (const toolCallId of pending.keys()) {
      messages.push({ role: 'tool', tool_call_id: toolCallId, content: unansweredToolCallText });
    }
    pending = new Map();
    // The Chat API has no images in tool messages: they follow as one user message.
    if (pendingImages.length > 0) {
      messages.push({ role: 'user', content: pendingImages });
      pendingImages = [];
    }
  };

  for (const message of prompt) {
    if (message.role !== 'tool') closePendingCalls();
    switch (message.role) {
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const onlyText = message.content.every((part) => part.type === 'text');
        if (onlyText && message.content.length === 1) {
          messages.push({ role: 'user', content: (message.content[0] as { text: string }).text });
          break;
        }
        messages.push({
          role: 'user',
          content: message.content.map(
            (part): ChatCompletionContentPart =>
              part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: imageUrl(part) } },
          ),
        });
        break;
      }
      case 'assistant': {
        const text = message.content
          .filter((part) => part.type === 'text')
          .map((part) => part.text)
          .join('');
        const toolCalls: ChatCompletionMessageToolCall[] = [];
        for (const part of message.content) {
          if (part.type !== 'tool-call') continue;
          toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: toolCallArguments(part.input) } });
          pending.set(part.toolCallId, part.toolName);
        }
        if (text === '' && toolCalls.length === 0) break;
        messages.push({
          role: 'assistant',
          content: text === '' ? null : text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        });
        break;
      }
      case 'tool': {
        for (const part of message.content) {
          if (!pending.has(part.toolCallId)) {
            warnings.push({ type: 'other', message: `Dropped the result of tool call ${part.toolCallId}: no assistant message called it.` });
            continue;
          }
          pending.delete(part.toolCallId);
          const { text, images } = toolResultText(part.output);
          messages.push({ role: 'tool', tool_call_id: part.toolCallId, content: text });
          if (images.length > 0) {
            pendingImages.push({ type: 'text', text: `Images returned by tool call ${part.toolCallId}:` });
            for (const image of images) pendingImages.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
          }
        }
        break;
      }
    }
  }
  closePendingCalls();
  return { messages, warnings };
}
