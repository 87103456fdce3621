import type { FinishReason, LanguageModelV1StreamPart, LanguageModelV1Usage } from '@cairn/core/spec';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { mapOpenAIChatFinishReason } from './map-openai-finish-reason.js';
import { emptyUsage, mapOpenAIChatUsage } from './map-openai-usage.js';

interface ToolCallInProgress {
  id: string;
  name: string;
  arguments: string;
}

/** What the mapper remembers between chunks. Create one per response with `createOpenAIChatStreamState`. */
export interface OpenAIChatStreamState {
  metadataSent: boolean;
  textOpen: boolean;
  refusalOpen: boolean;
  reasoningOpen: boolean;
  toolCalls: Map<number, ToolCallInProgress>;
  finishReason: FinishReason | undefined;
  usage: LanguageModelV1Usage | undefined;
  requestId: string | undefined;
}

export function createOpenAIChatStreamState(requestId?: string): OpenAIChatStreamState {
  return { metadataSent: false, textOpen: false, refusalOpen: false, reasoningOpen: false, toolCalls: new Map(), finishReason: undefined, usage: undefined, requestId };
}

const textId = 'text-0';
const refusalId = 'refusal-0';
const reasoningId = 'reasoning-0';

function closeReasoning(state: OpenAIChatStreamState, parts: LanguageModelV1StreamPart[]): void {
  if (state.reasoningOpen) parts.push({ type: 'reasoning-end', id: reasoningId });
  state.reasoningOpen = false;
}

function closeText(state: OpenAIChatStreamState, parts: LanguageModelV1StreamPart[]): void {
  closeReasoning(state, parts);
  if (state.textOpen) parts.push({ type: 'text-end', id: textId });
  if (state.refusalOpen) parts.push({ type: 'text-end', id: refusalId });
  state.textOpen = false;
  state.refusalOpen = false;
}

/**
 * One Chat Completions chunk -> stream parts. No I/O: the state object carries what is needed
 * across chunks. Only choice 0 is used (a request with `n > 1` is not something an agent makes;
 * the other choices are ignored). Tool calls are keyed by `index`; the complete `tool-call` part
 * is only emitted when the model finished, so a stream cut mid-call never yields a half call.
 */
export function mapOpenAIChatStreamChunk(chunk: ChatCompletionChunk, state: OpenAIChatStreamState): LanguageModelV1StreamPart[] {
  const parts: LanguageModelV1StreamPart[] = [];
  // Azure sends a first chunk with an empty id and only prompt filter results.
  if (!state.metadataSent && chunk.id) {
    state.metadataSent = true;
    parts.push({
      type: 'response-metadata',
      id: chunk.id,
      ...(chunk.model ? { modelId: chunk.model } : {}),
      ...(chunk.created ? { timestamp: new Date(chunk.created * 1000) } : {}),
      ...(state.requestId ? { requestId: state.requestId } : {}),
    });
  }
  if (chunk.usage) state.usage = mapOpenAIChatUsage(chunk.usage);

  const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
  if (!choice) return parts;
  const delta = choice.delta ?? {};

  // Compatible servers stream thinking in a field of their own: `reasoning_content` (vLLM,
  // DeepSeek, llama.cpp) or `reasoning` (Ollama, OpenRouter). OpenAI itself sends neither.
  const loose = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const reasoning = typeof loose.reasoning_content === 'string' ? loose.reasoning_content : loose.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') {
    if (!state.reasoningOpen) {
      state.reasoningOpen = true;
      parts.push({ type: 'reasoning-start', id: reasoningId });
    }
    parts.push({ type: 'reasoning-delta', id: reasoningId, delta: reasoning });
  }

  if (typeof delta.content === 'string' && delta.content !== '') {
    closeReasoning(state, parts);
    if (!state.textOpen) {
      state.textOpen = true;
      parts.push({ type: 'text-start', id: textId });
    }
    parts.push({ type: 'text-delta', id: textId, delta: delta.content });
  }
  // A refusal is shown as text, marked so a UI can tell it apart.
  if (typeof delta.refusal === 'string' && delta.refusal !== '') {
    if (!state.refusalOpen) {
      state.refusalOpen = true;
      parts.push({ type: 'text-start', id: refusalId, providerMetadata: { openai: { refusal: true } } });
    }
    parts.push({ type: 'text-delta', id: refusalId, delta: delta.refusal });
  }

  for (const toolCallDelta of delta.tool_calls ?? []) {
    const index = toolCallDelta.index ?? 0;
    let call = state.toolCalls.get(index);
    if (!call) {
      closeText(state, parts);
      call = {
        id: toolCallDelta.id ?? `call-${index}`,
        name: toolCallDelta.function?.name ?? '',
        arguments: '',
      };
      state.toolCalls.set(index, call);
      parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
    }
    const piece = toolCallDelta.function?.arguments;
    if (piece) {
      call.arguments += piece;
      parts.push({ type: 'tool-input-delta', id: call.id, delta: piece });
    }
  }

  if (choice.finish_reason) {
    state.finishReason = mapOpenAIChatFinishReason(choice.finish_reason);
    // Some compatible servers say `stop` although they sent tool calls.
    if (state.toolCalls.size > 0 && state.finishReason.unified === 'stop') state.finishReason = { unified: 'tool-calls', raw: state.finishReason.raw };
    closeText(state, parts);
    for (const index of [...state.toolCalls.keys()].sort((a, b) => a - b)) {
      const call = state.toolCalls.get(index)!;
      parts.push({ type: 'tool-input-end', id: call.id });
      parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments === '' ? '{}' : call.arguments });
    }
    state.toolCalls.clear();
  }
  return parts;
}

/**
 * The parts that end the stream: `finish` when the model finished, otherwise `undefined` (the
 * caller reports the cut stream as an error; open tool calls are never completed).
 */
export function finishOpenAIChatStream(state: OpenAIChatStreamState): LanguageModelV1StreamPart[] | undefined {
  if (!state.finishReason) return undefined;
  return [{ type: 'finish', finishReason: state.finishReason, usage: state.usage ?? emptyUsage() }];
}
