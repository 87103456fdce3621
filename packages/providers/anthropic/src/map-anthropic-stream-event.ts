import { ProviderError } from '@cairn/core/errors';
import type { LanguageModelV1StreamPart } from '@cairn/core/spec';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { type AnthropicUsageLike, mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';

/** The raw Messages stream events we read (`RawMessageStreamEvent` of `@anthropic-ai/sdk`, kept structural). */
export type AnthropicStreamEvent =
  | { type: 'message_start'; message: { id?: string; model?: string; usage?: AnthropicUsageLike } }
  | { type: 'message_delta'; delta: { stop_reason?: string | null; stop_sequence?: string | null }; usage?: AnthropicUsageLike }
  | { type: 'message_stop' }
  | { type: 'content_block_start'; index: number; content_block: { type: string; [key: string]: unknown } }
  | { type: 'content_block_delta'; index: number; delta: { type: string; [key: string]: unknown } }
  | { type: 'content_block_stop'; index: number }
  | { type: string; [key: string]: unknown };

type BlockState =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature?: string; redactedData?: string }
  | { kind: 'tool'; id: string; toolName: string; json: string; initialInput: unknown }
  | { kind: 'server' };

/** What one response's events have built so far; one state per response. */
export interface AnthropicStreamState {
  blocks: Map<number, BlockState>;
  usageStart?: AnthropicUsageLike;
  usageDelta?: AnthropicUsageLike;
  stopReason?: string | null;
  stopSequence?: string | null;
  messageStopped: boolean;
  /** True once any content part went out: replaying the request is then not free. */
  contentStarted: boolean;
}

export function createAnthropicStreamState(): AnthropicStreamState {
  return { blocks: new Map(), messageStopped: false, contentStarted: false };
}

function startBlock(state: AnthropicStreamState, index: number, block: { type: string; [key: string]: unknown }, event: unknown): LanguageModelV1StreamPart[] {
  const id = `block-${index}`;
  switch (block.type) {
    case 'text': {
      state.blocks.set(index, { kind: 'text', id });
      const parts: LanguageModelV1StreamPart[] = [{ type: 'text-start', id }];
      if (typeof block.text === 'string' && block.text) parts.push({ type: 'text-delta', id, delta: block.text });
      return parts;
    }
    case 'thinking': {
      const signature = typeof block.signature === 'string' && block.signature ? block.signature : undefined;
      state.blocks.set(index, { kind: 'reasoning', id, signature });
      const parts: LanguageModelV1StreamPart[] = [{ type: 'reasoning-start', id }];
      if (typeof block.thinking === 'string' && block.thinking) parts.push({ type: 'reasoning-delta', id, delta: block.thinking });
      return parts;
    }
    case 'redacted_thinking':
      state.blocks.set(index, { kind: 'reasoning', id, redactedData: String(block.data ?? '') });
      return [{ type: 'reasoning-start', id }];
    case 'tool_use': {
      const toolId = String(block.id ?? id);
      const toolName = String(block.name ?? '');
      state.blocks.set(index, { kind: 'tool', id: toolId, toolName, json: '', initialInput: block.input });
      return [{ type: 'tool-input-start', id: toolId, toolName }];
    }
    default:
      // Server tools (web search, code execution, ...) run on Anthropic's side: passed on as raw
      // events for observers, never as tool calls the runtime would try to execute.
      state.blocks.set(index, { kind: 'server' });
      return [{ type: 'raw', rawValue: event }];
  }
}

function deltaBlock(state: AnthropicStreamState, index: number, delta: { type: string; [key: string]: unknown }, event: unknown): LanguageModelV1StreamPart[] {
  const block = state.blocks.get(index);
  if (!block || block.kind === 'server') return [];
  if (block.kind === 'text') {
    if (delta.type === 'text_delta' && typeof delta.text === 'string') return [{ type: 'text-delta', id: block.id, delta: delta.text }];
    // Citations of web search results: kept for observers, not part of the text.
    if (delta.type === 'citations_delta') return [{ type: 'raw', rawValue: event }];
    return [];
  }
  if (block.kind === 'reasoning') {
    if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') return [{ type: 'reasoning-delta', id: block.id, delta: delta.thinking }];
    if (delta.type === 'signature_delta' && typeof delta.signature === 'string') block.signature = (block.signature ?? '') + delta.signature;
    return [];
  }
  if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && delta.partial_json) {
    block.json += delta.partial_json;
    return [{ type: 'tool-input-delta', id: block.id, delta: delta.partial_json }];
  }
  return [];
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

function stopBlock(state: AnthropicStreamState, index: number): LanguageModelV1StreamPart[] {
  const block = state.blocks.get(index);
  state.blocks.delete(index);
  if (!block || block.kind === 'server') return [];
  if (block.kind === 'text') return [{ type: 'text-end', id: block.id }];
  if (block.kind === 'reasoning') {
    return [
      {
        type: 'reasoning-end',
        id: block.id,
        ...(block.signature ? { signature: block.signature } : {}),
        ...(block.redactedData !== undefined ? { redactedData: block.redactedData } : {}),
      },
    ];
  }
  // A tool without arguments streams no deltas at all; the call still needs a JSON object.
  const input = block.json || (isNonEmptyObject(block.initialInput) ? JSON.stringify(block.initialInput) : '{}');
  return [
    { type: 'tool-input-end', id: block.id },
    { type: 'tool-call', toolCallId: block.id, toolName: block.toolName, input },
  ];
}

/**
 * One SDK stream event to the unified parts. Keeps what later events need (open blocks, tool JSON,
 * usage) in `state`; has no other effects.
 */
export function mapAnthropicStreamEvent(state: AnthropicStreamState, event: AnthropicStreamEvent): LanguageModelV1StreamPart[] {
  const parts = mapEvent(state, event);
  if (parts.some((part) => part.type !== 'response-metadata' && part.type !== 'raw')) state.contentStarted = true;
  return parts;
}

function mapEvent(state: AnthropicStreamState, event: AnthropicStreamEvent): LanguageModelV1StreamPart[] {
  switch (event.type) {
    case 'message_start': {
      const message = (event as Extract<AnthropicStreamEvent, { type: 'message_start' }>).message;
      state.usageStart = message.usage;
      return [{ type: 'response-metadata', id: message.id, modelId: message.model }];
    }
    case 'content_block_start': {
      const start = event as Extract<AnthropicStreamEvent, { type: 'content_block_start' }>;
      return startBlock(state, start.index, start.content_block, event);
    }
    case 'content_block_delta': {
      const delta = event as Extract<AnthropicStreamEvent, { type: 'content_block_delta' }>;
      return deltaBlock(state, delta.index, delta.delta, event);
    }
    case 'content_block_stop':
      return stopBlock(state, (event as Extract<AnthropicStreamEvent, { type: 'content_block_stop' }>).index);
    case 'message_delta': {
      const delta = event as Extract<AnthropicStreamEvent, { type: 'message_delta' }>;
      if (delta.delta.stop_reason !== undefined) state.stopReason = delta.delta.stop_reason;
      if (delta.delta.stop_sequence !== undefined) state.stopSequence = delta.delta.stop_sequence;
      state.usageDelta = mergeAnthropicUsage(state.usageDelta, delta.usage);
      return [];
    }
    case 'message_stop':
      state.messageStopped = true;
      return [];
    default:
      return [];
  }
}

/**
 * The closing parts once the SDK stream ended without an error: `finish`, or an in-band error when
 * the body ended before `message_stop` (a cut connection that closed cleanly). Calls whose
 * `content_block_stop` never came were never emitted, so a cut-off call cannot run.
 */
export function finishAnthropicStream(state: AnthropicStreamState, requestId?: string): LanguageModelV1StreamPart[] {
  if (!state.messageStopped) {
    return [
      {
        type: 'error',
        error: new ProviderError('Anthropic stream ended before message_stop; the response is incomplete.', {
          provider: 'anthropic',
          isRetryable: true,
          responseStarted: state.contentStarted,
          requestId,
          code: 'incomplete_stream',
        }),
      },
    ];
  }
  return [
    {
      type: 'finish',
      finishReason: mapAnthropicFinishReason(state.stopReason),
      usage: mapAnthropicUsage(mergeAnthropicUsage(state.usageStart, state.usageDelta)),
      ...(state.stopSequence ? { providerMetadata: { anthropic: { stopSequence: state.stopSequence } } } : {}),
    },
  ];
}
