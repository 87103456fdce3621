import type { AssistantModelMessage, CallWarning, JSONObject, ModelMessage, ProviderMetadata } from '@cairn/core';
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

function convertAssistant(message: AssistantModelMessage, items: ResponseInputItem[], pending: Set<string>): void {
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
      pending.add(part.toolCallId);
      items.push({
        type: 'function_call',
        call_id: part.toolCallId,
        name: part.toolName,
        arguments: toolCallArguments(part.input),
        ...(itemId ? { id: itemId } : {}),
      });
    }
  }
}

/**
 * Provider-neutral messages -> Responses API input items, for stateless requests (`store: false`):
 * reasoning items go back with their encrypted content, tool results as `function_call_output`
 * by `call_id`, and every function call gets an output. Pure.
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
    switch (message.role) {
      case 'system':
        items.push({ role: 'system', content: message.content });
        break;
      case 'user':
        items.push({
          role: 'user',
          content: message.content.map((part) =>
            part.type === 'text' ? { type: 'input_text' as const, text: part.text } : { type: 'input_image' as const, image_url: imageUrl(part), detail: 'auto' as const },
          ),
        });
        break;
      case 'assistant':
        convertAssistant(message, items, pending);
        break;
      case 'tool':
        for (const part of message.content) {
          if (!pending.has(part.toolCallId)) {
            warnings.push({ type: 'other', message: `Dropped the result of tool call ${part.toolCallId}: no assistant message called it.` });
            continue;
          }
          pending.delete(part.toolCallId);
          const { text, images } = toolResultText(part.output);
          items.push({
            type: 'function_call_output',
            call_id: part.toolCallId,
            output:
              images.length === 0
                ? text
                : [
                    ...(text === '' ? [] : [{ type: 'input_text' as const, text }]),
                    ...images.map((image) => ({ type: 'input_image' as const, image_url: dataUrl(image), detail: 'auto' as const })),
                  ],
          });
        }
        break;
    }
  }
  closePendingCalls();
  return { input: items, warnings };
}
