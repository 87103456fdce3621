import type { AssistantModelMessage, CallWarning, JSONObject, ModelMessage, ProviderMetadata, ToolModelMessage } from '@cairn/core/spec';
import { createMessageCache } from '@cairn/provider-utils';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { dataUrl, imageUrl, toolCallArguments, toolResultText, unansweredToolCallText } from './convert-tool-result-output.js';

function openAIMetadata(metadata: ProviderMetadata | undefined): JSONObject {
  return metadata?.openai ?? {};
}

function stringField(object: JSONObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A reasoning item can only travel back statelessly (`store: false`) with its encrypted content.
 * When one of a message's reasoning items cannot, the message's other item ids are left out too,
 * because the API rejects an output item id whose reasoning item is missing.
 */
function canSendItemIds(message: AssistantModelMessage): boolean {
  return message.content.every((part) => {
    if (part.type !== 'reasoning') return true;
    const metadata = openAIMetadata(part.providerMetadata);
    return stringField(metadata, 'itemId') === undefined || stringField(metadata, 'encryptedContent') !== undefined;
  });
}

/** What one message converts to, whatever its neighbours are: cached per message object. */
type ConvertedInput =
  | { role: 'system' | 'user'; items: ResponseInputItem[] }
  | { role: 'assistant'; items: ResponseInputItem[]; callIds: string[] }
  | { role: 'tool'; outputs: Array<{ callId: string; item: ResponseInputItem }> };

/** Each message's conversion, shared by every later step of the conversation (read only). */
export const openAIResponsesInputCache = createMessageCache<ConvertedInput>();

function convertAssistant(message: AssistantModelMessage): ConvertedInput {
  const items: ResponseInputItem[] = [];
  const callIds: string[] = [];
  const withIds = canSendItemIds(message);
  for (const part of message.content) {
    const metadata = openAIMetadata(part.providerMetadata);
    const itemId = withIds ? stringField(metadata, 'itemId') : undefined;
    if (part.type === 'text') {
      if (part.text === '') continue;
      const phase = stringField(metadata, 'phase') as 'commentary' | 'final_answer' | undefined;
      items.push(
        itemId
          ? {
              type: 'message',
              role: 'assistant',
              id: itemId,
              status: 'completed',
              content: [{ type: 'output_text', text: part.text, annotations: [] }],
              ...(phase ? { phase } : {}),
            }
          : { role: 'assistant', content: part.text, ...(phase ? { phase } : {}) },
      );
    } else if (part.type === 'reasoning') {
      const reasoningId = stringField(metadata, 'itemId');
      const encryptedContent = stringField(metadata, 'encryptedContent');
      // Reasoning of another provider, or without its encrypted content, cannot be sent back.
      if (!reasoningId || !encryptedContent) continue;
      items.push({
        type: 'reasoning',
        id: reasoningId,
        encrypted_content: encryptedContent,
        summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
      });
    } else {
      callIds.push(part.toolCallId);
      items.push({
        type: 'function_call',
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: toolCallArguments(part.input),
        ...(itemId ? { id: itemId } : {}),
      });
    }
  }
  return { role: 'assistant', items, callIds };
}

function convertToolOutputs(message: ToolModelMessage): ConvertedInput {
  return {
    role: 'tool',
    outputs: message.content.map((part) => {
      const { text, images } = toolResultText(part.output);
      const output =
        images.length === 0
          ? text
          : [
              ...(text === '' ? [] : [{ type: 'input_text' as const, text }]),
              ...images.map((image) => ({ type: 'input_image' as const, image_url: dataUrl(image), detail: 'auto' as const })),
            ];
      return { callId: part.toolCallId, item: { type: 'function_call_output', call_id: part.toolCallId, output } };
    }),
  };
}

function convertMessage(message: ModelMessage): ConvertedInput {
  switch (message.role) {
    case 'system':
      return { role: 'system', items: [{ role: 'system', content: message.content }] };
    case 'user':
      return {
        role: 'user',
        items: [
          {
            role: 'user',
            content: message.content.map((part) =>
              part.type === 'text' ? { type: 'input_text' as const, text: part.text } : { type: 'input_image' as const, image_url: imageUrl(part), detail: 'auto' as const },
            ),
          },
        ],
      };
    case 'assistant':
      return convertAssistant(message);
    case 'tool':
      return convertToolOutputs(message);
  }
}

/**
 * Provider-neutral messages -> Responses API input items, for stateless requests (`store: false`):
 * reasoning items go back with their encrypted content, tool results as `function_call_output`
 * by `call_id`, and every function call gets an output. Each message is converted once (cached);
 * only the pairing of calls and outputs runs every step.
 */
export function convertToOpenAIResponsesInput(prompt: ModelMessage[]): { input: ResponseInputItem[]; warnings: CallWarning[] } {
  const items: ResponseInputItem[] = [];
  const warnings: CallWarning[] = [];
  let pending = new Set<string>();
  const closePendingCalls = () => {
    for (const callId of pending) items.push({ type: 'function_call_output', call_id: callId, output: unansweredToolCallText });
    pending = new Set();
  };

  for (const message of prompt) {
    if (message.role !== 'tool') closePendingCalls();
    const converted = openAIResponsesInputCache.get(message, convertMessage);
    if (converted.role !== 'tool') {
      if (converted.role === 'assistant') for (const callId of converted.callIds) pending.add(callId);
      items.push(...converted.items);
      continue;
    }
    for (const { callId, item } of converted.outputs) {
      if (!pending.has(callId)) {
        warnings.push({ type: 'other', message: `Dropped the result of tool call ${callId}: no assistant message called it.` });
        continue;
      }
      pending.delete(callId);
      items.push(item);
    }
  }
  closePendingCalls();
  return { input: items, warnings };
}
