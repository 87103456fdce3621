import { ProviderError } from '@cairn/core/errors';
import type { JSONObject, LanguageModelV1StreamPart } from '@cairn/core/spec';
import { mapGoogleFinishReason } from './map-google-finish-reason.js';
import { type GoogleUsageMetadataLike, mapGoogleUsage } from './map-google-usage.js';

/** Vertex AI `streamFunctionCallArguments` fragment: one JSON path and its value. */
interface PartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

/** The part fields we read (`Part` of `@google/genai`, kept structural). */
export interface GooglePartLike {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown>; partialArgs?: PartialArg[]; willContinue?: boolean };
  [key: string]: unknown;
}

/** One streamed `GenerateContentResponse` (or a whole non-streaming one: same shape). */
export interface GoogleChunkLike {
  responseId?: string;
  modelVersion?: string;
  candidates?: Array<{ content?: { parts?: GooglePartLike[] }; finishReason?: string; finishMessage?: string }>;
  usageMetadata?: GoogleUsageMetadataLike;
  promptFeedback?: { blockReason?: string };
}

interface PendingCall {
  id: string;
  apiId?: string;
  name: string;
  args: Record<string, unknown>;
  signature?: string;
}

export interface GoogleStreamState {
  metadataSent: boolean;
  responseId?: string;
  blockCount: number;
  callCount: number;
  text?: { id: string; signature?: string };
  reasoning?: { id: string; signature?: string };
  /** A Vertex call whose arguments are still streaming (`willContinue`). */
  pending?: PendingCall;
  hasToolCalls: boolean;
  finishReason?: string;
  finishMessage?: string;
  blockReason?: string;
  usage?: GoogleUsageMetadataLike;
  /** Makes tool-call ids when the API sends none; injectable for tests. */
  makeId: (responseId: string | undefined, index: number) => string;
}

export function createGoogleStreamState(makeId?: GoogleStreamState['makeId']): GoogleStreamState {
  return {
    metadataSent: false,
    blockCount: 0,
    callCount: 0,
    hasToolCalls: false,
    // Stable within a response (response id + call index), unique across responses.
    makeId: makeId ?? ((responseId, index) => (responseId ? `${responseId}-call-${index}` : `gemini-call-${crypto.randomUUID()}`)),
  };
}

function signatureMetadata(signature: string | undefined): { providerMetadata?: { google: JSONObject } } {
  return signature ? { providerMetadata: { google: { thoughtSignature: signature } } } : {};
}

function closeText(state: GoogleStreamState): LanguageModelV1StreamPart[] {
  const text = state.text;
  if (!text) return [];
  state.text = undefined;
  return [{ type: 'text-end', id: text.id, ...signatureMetadata(text.signature) }];
}

function closeReasoning(state: GoogleStreamState): LanguageModelV1StreamPart[] {
  const reasoning = state.reasoning;
  if (!reasoning) return [];
  state.reasoning = undefined;
  return [{ type: 'reasoning-end', id: reasoning.id, ...(reasoning.signature ? { signature: reasoning.signature } : {}) }];
}

function nextId(state: GoogleStreamState, kind: string): string {
  state.blockCount += 1;
  return `${kind}-${state.blockCount - 1}`;
}

function emitCall(state: GoogleStreamState, call: PendingCall, started: boolean): LanguageModelV1StreamPart[] {
  state.hasToolCalls = true;
  const input = JSON.stringify(call.args);
  const metadata: JSONObject = {};
  if (call.signature) metadata.thoughtSignature = call.signature;
  if (call.apiId) metadata.functionCallId = call.apiId;
  const providerMetadata = Object.keys(metadata).length > 0 ? { providerMetadata: { google: metadata } } : {};
  return [
    ...(started ? [] : [{ type: 'tool-input-start' as const, id: call.id, toolName: call.name, ...providerMetadata }]),
    { type: 'tool-input-delta', id: call.id, delta: input },
    { type: 'tool-input-end', id: call.id },
    { type: 'tool-call', toolCallId: call.id, toolName: call.name, input, ...providerMetadata },
  ];
}

/** Writes one streamed argument fragment at its `$.a.b` path (string fragments concatenate). */
function applyPartialArg(args: Record<string, unknown>, fragment: PartialArg): void {
  const path = (fragment.jsonPath ?? '').replace(/^\$\.?/, '');
  if (!path) return;
  const keys = path.split('.');
  let target = args;
  for (const key of keys.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (fragment.stringValue !== undefined) target[last] = (typeof target[last] === 'string' ? target[last] : '') + fragment.stringValue;
  else if (fragment.numberValue !== undefined) target[last] = fragment.numberValue;
  else if (fragment.boolValue !== undefined) target[last] = fragment.boolValue;
  else if ('nullValue' in fragment) target[last] = null;
}

function mapFunctionCall(state: GoogleStreamState, part: GooglePartLike): LanguageModelV1StreamPart[] {
  const call = part.functionCall!;
  const parts = [...closeText(state), ...closeReasoning(state)];
  const pending = state.pending;
  if (pending) {
    for (const fragment of call.partialArgs ?? []) applyPartialArg(pending.args, fragment);
    if (part.thoughtSignature) pending.signature ??= part.thoughtSignature;
    if (!call.willContinue) {
      state.pending = undefined;
      parts.push(...emitCall(state, pending, true));
    }
    return parts;
  }
  // An empty functionCall outside a streamed call carries nothing.
  if (!call.name) return parts;
  const index = state.callCount;
  state.callCount += 1;
  const next: PendingCall = { id: call.id ?? state.makeId(state.responseId, index), apiId: call.id, name: call.name, args: { ...(call.args ?? {}) }, signature: part.thoughtSignature };
  if (call.willContinue) {
    for (const fragment of call.partialArgs ?? []) applyPartialArg(next.args, fragment);
    state.pending = next;
    const metadata = next.signature ? { providerMetadata: { google: { thoughtSignature: next.signature } } } : {};
    parts.push({ type: 'tool-input-start', id: next.id, toolName: next.name, ...metadata });
    return parts;
  }
  parts.push(...emitCall(state, next, false));
  return parts;
}

function mapTextPart(state: GoogleStreamState, part: GooglePartLike): LanguageModelV1StreamPart[] {
  const parts: LanguageModelV1StreamPart[] = [];
  const text = part.text ?? '';
  if (part.thought) {
    parts.push(...closeText(state));
    if (!state.reasoning || (part.thoughtSignature && state.reasoning.signature)) {
      parts.push(...closeReasoning(state));
      state.reasoning = { id: nextId(state, 'reasoning') };
      parts.push({ type: 'reasoning-start', id: state.reasoning.id });
    }
    if (part.thoughtSignature) state.reasoning.signature = part.thoughtSignature;
    if (text) parts.push({ type: 'reasoning-delta', id: state.reasoning.id, delta: text });
    return parts;
  }
  if (!text && !part.thoughtSignature) return parts;
  parts.push(...closeReasoning(state));
  // A signature belongs to one part; a second signed part must not be merged into the first.
  if (!state.text || (part.thoughtSignature && state.text.signature)) {
    parts.push(...closeText(state));
    state.text = { id: nextId(state, 'text') };
    parts.push({ type: 'text-start', id: state.text.id });
  }
  if (part.thoughtSignature) state.text.signature = part.thoughtSignature;
  if (text) parts.push({ type: 'text-delta', id: state.text.id, delta: text, ...signatureMetadata(part.thoughtSignature) });
  return parts;
}

/** One chunk to unified parts; what later chunks need stays in `state`. */
export function mapGoogleStreamChunk(state: GoogleStreamState, chunk: GoogleChunkLike): LanguageModelV1StreamPart[] {
  const parts: LanguageModelV1StreamPart[] = [];
  if (!state.metadataSent) {
    state.metadataSent = true;
    state.responseId = chunk.responseId;
    parts.push({ type: 'response-metadata', id: chunk.responseId, modelId: chunk.modelVersion });
  }
  const candidate = chunk.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.functionCall) parts.push(...mapFunctionCall(state, part));
    else if (part.text !== undefined || part.thoughtSignature) parts.push(...mapTextPart(state, part));
    else parts.push({ type: 'raw', rawValue: part });
  }
  if (candidate?.finishReason) state.finishReason = candidate.finishReason;
  if (candidate?.finishMessage) state.finishMessage = candidate.finishMessage;
  if (chunk.promptFeedback?.blockReason) state.blockReason = chunk.promptFeedback.blockReason;
  if (chunk.usageMetadata) state.usage = chunk.usageMetadata;
  return parts;
}

/** Closing parts after the last chunk: open blocks end, then `finish` (or an error for a cut stream). */
export function finishGoogleStream(state: GoogleStreamState): LanguageModelV1StreamPart[] {
  const parts = [...closeText(state), ...closeReasoning(state)];
  if (state.pending || (!state.finishReason && !state.blockReason)) {
    // A call whose arguments never completed is not emitted: it must not run.
    parts.push({
      type: 'error',
      error: new ProviderError(
        state.pending ? `Gemini stream ended inside the arguments of ${state.pending.name}; the call was dropped.` : 'Gemini stream ended without a finish reason; the response is incomplete.',
        { provider: 'google', isRetryable: true, responseStarted: state.blockCount > 0 || state.callCount > 0, code: 'incomplete_stream' },
      ),
    });
    return parts;
  }
  const finishReason = mapGoogleFinishReason(state.finishReason, state.hasToolCalls, state.blockReason);
  const metadata: JSONObject = {};
  if (state.finishMessage) metadata.finishMessage = state.finishMessage;
  if (state.blockReason) metadata.blockReason = state.blockReason;
  parts.push({
    type: 'finish',
    finishReason,
    usage: mapGoogleUsage(state.usage),
    ...(Object.keys(metadata).length > 0 ? { providerMetadata: { google: metadata } } : {}),
  });
  return parts;
}
