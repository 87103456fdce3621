import { ProviderError } from '@cairn/core/errors';
import type { LanguageModelV1StreamPart } from '@cairn/core/spec';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { mapOpenAIResponsesFinishReason } from './map-openai-finish-reason.js';
import { mapOpenAIResponsesUsage } from './map-openai-usage.js';

interface OutputItemInProgress {
  kind: 'text' | 'reasoning' | 'tool';
  /** For tools: the `call_id` the parts are keyed by. */
  partId: string;
  toolName?: string;
}

/** What the mapper remembers between events. Create one per response. */
export interface OpenAIResponsesStreamState {
  items: Map<string, OutputItemInProgress>;
  hasToolCalls: boolean;
  finished: boolean;
  requestId: string | undefined;
  provider: string;
}

export function createOpenAIResponsesStreamState(provider: string, requestId?: string): OpenAIResponsesStreamState {
  return { items: new Map(), hasToolCalls: false, finished: false, requestId, provider };
}

// The SDK's event union is wide; the mapper reads the few fields it needs from a loose view.
type LooseItem = { id?: string; type?: string; call_id?: string; name?: string; arguments?: string; input?: string; encrypted_content?: string | null; phase?: string | null };
type LooseEvent = {
  type: string;
  item?: LooseItem;
  item_id?: string;
  delta?: string;
  summary_index?: number;
  response?: { id?: string; model?: string; created_at?: number; status?: string; usage?: unknown; incomplete_details?: { reason?: string | null } | null; error?: { code?: string; message?: string } | null };
  code?: string | null;
  message?: string;
};

function startItem(state: OpenAIResponsesStreamState, item: LooseItem, parts: LanguageModelV1StreamPart[]): void {
  if (!item.id || state.items.has(item.id)) return;
  if (item.type === 'message') {
    state.items.set(item.id, { kind: 'text', partId: item.id });
    parts.push({ type: 'text-start', id: item.id, providerMetadata: { openai: { itemId: item.id } } });
  } else if (item.type === 'reasoning') {
    state.items.set(item.id, { kind: 'reasoning', partId: item.id });
    parts.push({ type: 'reasoning-start', id: item.id, providerMetadata: { openai: { itemId: item.id } } });
  } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
    const callId = item.call_id ?? item.id;
    state.items.set(item.id, { kind: 'tool', partId: callId, toolName: item.name ?? '' });
    parts.push({ type: 'tool-input-start', id: callId, toolName: item.name ?? '' });
  }
  // Built-in tool items (web_search_call, ...) are run by OpenAI and have no parts of their own.
}

function endItem(state: OpenAIResponsesStreamState, item: LooseItem, parts: LanguageModelV1StreamPart[]): void {
  if (!item.id) return;
  startItem(state, item, parts);
  const known = state.items.get(item.id);
  if (!known) return;
  state.items.delete(item.id);
  if (known.kind === 'text') {
    parts.push({ type: 'text-end', id: item.id, providerMetadata: { openai: { itemId: item.id, ...(item.phase ? { phase: item.phase } : {}) } } });
  } else if (known.kind === 'reasoning') {
    // The runtime keeps this on the ReasoningPart; it goes back on the next (stateless) request.
    parts.push({
      type: 'reasoning-end',
      id: item.id,
      providerMetadata: { openai: { itemId: item.id, ...(item.encrypted_content ? { encryptedContent: item.encrypted_content } : {}) } },
    });
  } else {
    state.hasToolCalls = true;
    const custom = item.type === 'custom_tool_call';
    parts.push({ type: 'tool-input-end', id: known.partId });
    parts.push({
      type: 'tool-call',
      toolCallId: known.partId,
      toolName: item.name ?? known.toolName ?? '',
      // A custom (free-form) tool's input is plain text, passed on as the model wrote it.
      input: custom ? (item.input ?? '') : item.arguments || '{}',
      providerMetadata: { openai: { itemId: item.id, ...(custom ? { customTool: true } : {}) } },
    });
  }
}

function failed(state: OpenAIResponsesStreamState, error: { code?: string | null; message?: string } | null | undefined): LanguageModelV1StreamPart {
  const code = error?.code ?? undefined;
  return {
    type: 'error',
    error: new ProviderError(`OpenAI response failed: ${error?.message ?? 'no reason given'}`, {
      provider: state.provider,
      body: error ?? undefined,
      isRetryable: code === 'server_error' || code === 'rate_limit_exceeded',
      responseStarted: true,
      requestId: state.requestId,
      code: code ?? 'response_failed',
    }),
  };
}

/** One Responses API stream event -> stream parts. No I/O; the state carries open output items. */
export function mapOpenAIResponsesStreamEvent(event: ResponseStreamEvent, state: OpenAIResponsesStreamState): LanguageModelV1StreamPart[] {
  const parts: LanguageModelV1StreamPart[] = [];
  const loose = event as unknown as LooseEvent;
  switch (loose.type) {
    case 'response.created': {
      const response = loose.response ?? {};
      parts.push({
        type: 'response-metadata',
        ...(response.id ? { id: response.id } : {}),
        ...(response.model ? { modelId: response.model } : {}),
        ...(response.created_at ? { timestamp: new Date(response.created_at * 1000) } : {}),
        ...(state.requestId ? { requestId: state.requestId } : {}),
      });
      break;
    }
    case 'response.output_item.added':
      if (loose.item) startItem(state, loose.item, parts);
      break;
    case 'response.output_item.done':
      if (loose.item) endItem(state, loose.item, parts);
      break;
    case 'response.output_text.delta':
    case 'response.refusal.delta': {
      const known = loose.item_id ? state.items.get(loose.item_id) : undefined;
      if (known?.kind === 'text' && loose.delta) parts.push({ type: 'text-delta', id: known.partId, delta: loose.delta });
      break;
    }
    case 'response.reasoning_summary_part.added': {
      const known = loose.item_id ? state.items.get(loose.item_id) : undefined;
      // Summary parts of one reasoning item become paragraphs of one reasoning part.
      if (known?.kind === 'reasoning' && (loose.summary_index ?? 0) > 0) parts.push({ type: 'reasoning-delta', id: known.partId, delta: '\n\n' });
      break;
    }
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta': {
      const known = loose.item_id ? state.items.get(loose.item_id) : undefined;
      if (known?.kind === 'reasoning' && loose.delta) parts.push({ type: 'reasoning-delta', id: known.partId, delta: loose.delta });
      break;
    }
    case 'response.function_call_arguments.delta':
    case 'response.custom_tool_call_input.delta': {
      const known = loose.item_id ? state.items.get(loose.item_id) : undefined;
      if (known?.kind === 'tool' && loose.delta) parts.push({ type: 'tool-input-delta', id: known.partId, delta: loose.delta });
      break;
    }
    case 'response.completed':
    case 'response.incomplete': {
      const response = loose.response ?? {};
      state.finished = true;
      parts.push({
        type: 'finish',
        finishReason: mapOpenAIResponsesFinishReason({
          status: response.status ?? (loose.type === 'response.completed' ? 'completed' : 'incomplete'),
          incompleteReason: response.incomplete_details?.reason,
          hasToolCalls: state.hasToolCalls,
        }),
        usage: mapOpenAIResponsesUsage(response.usage as Parameters<typeof mapOpenAIResponsesUsage>[0]),
        ...(response.id ? { providerMetadata: { openai: { responseId: response.id } } } : {}),
      });
      break;
    }
    case 'response.failed':
      parts.push(failed(state, loose.response?.error));
      break;
    case 'error':
      parts.push(failed(state, { code: loose.code ?? undefined, message: loose.message ?? 'stream error' }));
      break;
  }
  return parts;
}
