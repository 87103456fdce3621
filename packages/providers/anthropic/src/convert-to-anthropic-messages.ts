import type { AssistantModelMessage, CallWarning, ImagePart, JSONValue, ModelMessage, ToolResultOutput } from '@cairn/core/spec';
import { createMessageCache } from '@cairn/provider-utils';

type CacheControl = { type: 'ephemeral' };

/** Inline bytes, or a URL Anthropic fetches itself. */
type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export type AnthropicContentBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image'; source: AnthropicImageSource; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: JSONValue; cache_control?: CacheControl }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: string | Array<{ type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }>;
      is_error?: boolean;
      cache_control?: CacheControl;
    };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicPrompt {
  system: Array<{ type: 'text'; text: string; cache_control?: CacheControl }>;
  messages: AnthropicMessage[];
  warnings: CallWarning[];
}

function toolResultContent(output: ToolResultOutput): { content: Extract<AnthropicContentBlock, { type: 'tool_result' }>['content']; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { content: output.value, isError: false };
    case 'error-text':
      return { content: output.value, isError: true };
    case 'json':
      return { content: JSON.stringify(output.value), isError: false };
    case 'error-json':
      return { content: JSON.stringify(output.value), isError: true };
    case 'content':
      return {
        content: output.value.map((item) =>
          item.type === 'text'
            ? { type: 'text' as const, text: item.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: item.mediaType, data: item.data } },
        ),
        isError: output.isError === true,
      };
  }
}

function imageSource(part: ImagePart): AnthropicImageSource {
  return 'url' in part ? { type: 'url', url: part.url } : { type: 'base64', media_type: part.mediaType, data: part.data };
}

/** What one message converts to, whatever its neighbours are: cached per message object. */
type ConvertedMessage =
  | { role: 'system'; blocks: AnthropicPrompt['system'] }
  | { role: 'user' | 'assistant' | 'tool'; blocks: AnthropicContentBlock[]; warnings: CallWarning[] };

/** Each message's conversion, shared by every later step of the conversation (read only). */
export const anthropicMessageCache = createMessageCache<ConvertedMessage>();

function convertAssistant(message: AssistantModelMessage): ConvertedMessage {
  const blocks: AnthropicContentBlock[] = [];
  const warnings: CallWarning[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text) blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      if (part.redactedData !== undefined) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
      else if (part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
      else if (part.text) {
        // Unsigned reasoning (another provider's, or a cut stream) is rejected by the API.
        warnings.push({ type: 'other', message: 'Dropped a reasoning part without an Anthropic signature.' });
      }
    } else {
      blocks.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input });
    }
  }
  return { role: 'assistant', blocks, warnings };
}

function convertMessage(message: ModelMessage): ConvertedMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', blocks: message.content ? [{ type: 'text', text: message.content }] : [] };
    case 'user':
      return {
        role: 'user',
        // The API rejects empty text blocks.
        blocks: message.content.flatMap((part): AnthropicContentBlock[] =>
          part.type === 'text' ? (part.text ? [{ type: 'text', text: part.text }] : []) : [{ type: 'image', source: imageSource(part) }],
        ),
        warnings: [],
      };
    case 'tool':
      return {
        role: 'tool',
        blocks: message.content.map((part): AnthropicContentBlock => {
          const { content, isError } = toolResultContent(part.output);
          return { type: 'tool_result', tool_use_id: part.toolCallId, content, ...(isError ? { is_error: true } : {}) };
        }),
        warnings: [],
      };
    case 'assistant':
      return convertAssistant(message);
  }
}

/**
 * Appends to the last message when it has the same role: tool results and the next user text form
 * one user turn. Message content arrays are this request's own; the blocks are shared (cached).
 */
function push(messages: AnthropicMessage[], role: 'user' | 'assistant', blocks: readonly AnthropicContentBlock[]): void {
  if (blocks.length === 0) return;
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: [...blocks] });
}

/** Tool results open the user turn: they go before any other block of it (Anthropic wants them first). */
function pushResults(messages: AnthropicMessage[], results: readonly AnthropicContentBlock[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user') {
    messages.push({ role: 'user', content: [...results] });
    return;
  }
  const firstOther = last.content.findIndex((block) => block.type !== 'tool_result');
  last.content.splice(firstOther === -1 ? last.content.length : firstOther, 0, ...results);
}

/**
 * Neutral messages to the Messages API shape. System messages become the `system` parameter;
 * tool results open the following user turn (Anthropic wants them first); the assistant's thinking
 * blocks go back exactly as received, with their signatures, in their original order. Each message
 * is converted once (cached); only the merging into turns runs every step.
 */
export function convertToAnthropicMessages(prompt: ModelMessage[]): AnthropicPrompt {
  const system: AnthropicPrompt['system'] = [];
  const messages: AnthropicMessage[] = [];
  const warnings: CallWarning[] = [];
  for (const message of prompt) {
    const converted = anthropicMessageCache.get(message, convertMessage);
    if (converted.role === 'system') {
      system.push(...converted.blocks);
      continue;
    }
    warnings.push(...converted.warnings);
    if (converted.role === 'tool') pushResults(messages, converted.blocks);
    else push(messages, converted.role, converted.blocks);
  }
  return { system, messages, warnings };
}
