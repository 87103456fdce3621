import type { AssistantModelMessage, CallWarning, ImagePart, JSONValue, ModelMessage, ProviderMetadata, ToolModelMessage, ToolResultOutput } from '@cairn/core/spec';
import { createMessageCache } from '@cairn/provider-utils';

/** A Gemini `Part` as we send it. */
export type GooglePart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { fileUri: string; mimeType?: string } }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: Record<string, unknown> } };

export interface GoogleContent {
  role: 'user' | 'model';
  parts: GooglePart[];
}

export interface GooglePrompt {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: GoogleContent[];
  warnings: CallWarning[];
}

export interface ConvertToGoogleOptions {
  /**
   * Gemini 3 rejects a function call of the current turn without a thought signature. History from
   * another provider has none; Google documents this placeholder for exactly that case.
   */
  placeholderSignatures?: boolean;
}

/** Google's documented placeholder for function calls that have no real thought signature. */
export const PLACEHOLDER_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

function googleMetadata(metadata: ProviderMetadata | undefined): { thoughtSignature?: string; functionCallId?: string } {
  const google = metadata?.google;
  return {
    ...(typeof google?.thoughtSignature === 'string' ? { thoughtSignature: google.thoughtSignature } : {}),
    ...(typeof google?.functionCallId === 'string' ? { functionCallId: google.functionCallId } : {}),
  };
}

/** The image types Gemini reads; it refuses GIF, which every other shipped provider takes. */
const geminiImageTypes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif']);

/**
 * An image as Gemini parts: inline bytes, or `fileData` with the URL (the API fetches public and
 * signed URLs itself; the type is left out when the URL does not name one). A type Gemini cannot
 * read is said in text, so the model knows an image was there and the request stays valid.
 */
function imageParts(image: ImagePart, warnings: CallWarning[]): GooglePart[] {
  const mediaType = image.mediaType;
  if (mediaType !== undefined && !geminiImageTypes.has(mediaType)) {
    warnings.push({ type: 'other', message: `Gemini does not read ${mediaType} images; the model was told about the image in text.` });
    return [{ text: `[An ${mediaType} image${'url' in image ? ` (${image.url})` : ''} was left out: Gemini does not read ${mediaType} images.]` }];
  }
  if ('url' in image) return [{ fileData: { fileUri: image.url, ...(mediaType ? { mimeType: mediaType } : {}) } }];
  return [{ inlineData: { mimeType: image.mediaType, data: image.data } }];
}

function responseOf(output: ToolResultOutput): Record<string, unknown> {
  // Google's convention: the result under `output`, a failure under `error`.
  switch (output.type) {
    case 'text':
    case 'json':
      return { output: output.value };
    case 'error-text':
    case 'error-json':
      return { error: output.value };
    case 'content': {
      const text = output.value.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
      return output.isError ? { error: text } : { output: text };
    }
  }
}

/**
 * The images of tool results, as parts that follow the function responses in the same user turn:
 * a function response holds JSON only on Gemini 2.5, so the images travel beside it, each set
 * introduced by the call it belongs to.
 */
function toolResultImages(part: { toolCallId: string; toolName: string; output: ToolResultOutput }, warnings: CallWarning[]): GooglePart[] {
  if (part.output.type !== 'content') return [];
  const images = part.output.value.flatMap((item) => (item.type === 'image' ? imageParts({ type: 'image', data: item.data, mediaType: item.mediaType }, warnings) : []));
  return images.length === 0 ? [] : [{ text: `Images returned by the ${part.toolName} call:` }, ...images];
}

function argsOf(input: JSONValue): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
}

interface ConvertedCall {
  toolCallId: string;
  name: string;
  apiId?: string | undefined;
}

/** What one message converts to, whatever its neighbours are: cached per message object. */
type ConvertedMessage =
  | { role: 'system'; text: string }
  | { role: 'user'; parts: GooglePart[]; warnings: CallWarning[] }
  | {
      role: 'assistant';
      parts: GooglePart[];
      calls: ConvertedCall[];
      /** The first function call of a message without any signature: where Gemini 3 needs the placeholder; -1 if none. */
      placeholderAt: number;
    }
  | {
      role: 'tool';
      /** The name and call id come from the call being answered, looked up when the request is assembled. */
      results: Array<{ toolCallId: string; toolName: string; response: Record<string, unknown> }>;
      images: GooglePart[];
      warnings: CallWarning[];
    };

/** Each message's conversion, shared by every later step of the conversation (read only). */
export const googleMessageCache = createMessageCache<ConvertedMessage>();

function convertAssistant(message: AssistantModelMessage): ConvertedMessage {
  const parts: GooglePart[] = [];
  const calls: ConvertedCall[] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const signature = part.signature ?? googleMetadata(part.providerMetadata).thoughtSignature;
      if (part.text || signature) parts.push({ text: part.text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
    } else if (part.type === 'text') {
      const { thoughtSignature } = googleMetadata(part.providerMetadata);
      if (part.text || thoughtSignature) parts.push({ text: part.text, ...(thoughtSignature ? { thoughtSignature } : {}) });
    } else {
      const { thoughtSignature, functionCallId } = googleMetadata(part.providerMetadata);
      calls.push({ toolCallId: part.toolCallId, name: part.toolName, apiId: functionCallId });
      parts.push({
        functionCall: { ...(functionCallId ? { id: functionCallId } : {}), name: part.toolName, args: argsOf(part.input) },
        ...(thoughtSignature ? { thoughtSignature } : {}),
      });
    }
  }
  const signed = parts.some((part) => 'thoughtSignature' in part && part.thoughtSignature);
  return { role: 'assistant', parts, calls, placeholderAt: signed ? -1 : parts.findIndex((part) => 'functionCall' in part) };
}

function convertToolMessage(message: ToolModelMessage): ConvertedMessage {
  const warnings: CallWarning[] = [];
  return {
    role: 'tool',
    results: message.content.map((part) => ({ toolCallId: part.toolCallId, toolName: part.toolName, response: responseOf(part.output) })),
    images: message.content.flatMap((part) => toolResultImages(part, warnings)),
    warnings,
  };
}

function convertMessage(message: ModelMessage): ConvertedMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', text: message.content };
    case 'user': {
      const warnings: CallWarning[] = [];
      // Empty text parts are rejected by the API.
      const parts = message.content.flatMap((part): GooglePart[] => (part.type === 'text' ? (part.text ? [{ text: part.text }] : []) : imageParts(part, warnings)));
      return { role: 'user', parts, warnings };
    }
    case 'assistant':
      return convertAssistant(message);
    case 'tool':
      return convertToolMessage(message);
  }
}

/** Appends to the last content when it has the same role. Content part arrays are this request's own; the parts are shared (cached). */
function push(contents: GoogleContent[], role: 'user' | 'model', parts: readonly GooglePart[]): void {
  if (parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last && last.role === role) last.parts.push(...parts);
  else contents.push({ role, parts: [...parts] });
}

/** Function responses (and the images after them) come before any other part of the user turn. */
function pushResponses(contents: GoogleContent[], parts: GooglePart[]): void {
  const last = contents[contents.length - 1];
  if (!last || last.role !== 'user') {
    contents.push({ role: 'user', parts });
    return;
  }
  const firstOther = last.parts.findIndex((part) => !('functionResponse' in part));
  last.parts.splice(firstOther === -1 ? last.parts.length : firstOther, 0, ...parts);
}

/** The message's parts, with Gemini 3's placeholder signature on a copy of its first call when it has none. */
function modelParts(converted: Extract<ConvertedMessage, { role: 'assistant' }>, placeholderSignatures: boolean): readonly GooglePart[] {
  if (!placeholderSignatures || converted.placeholderAt === -1) return converted.parts;
  const parts = [...converted.parts];
  parts[converted.placeholderAt] = { ...parts[converted.placeholderAt]!, thoughtSignature: PLACEHOLDER_THOUGHT_SIGNATURE } as GooglePart;
  return parts;
}

/**
 * Neutral messages to Gemini `contents`. Thought signatures go back on the same part they came on
 * (text or functionCall); function responses open the following user turn and carry the name (and
 * the API's call id, when it sent one) of the call they answer. Each message is converted once
 * (cached); merging turns, answering calls by name and the placeholder run every step.
 */
export function convertToGoogleMessages(prompt: ModelMessage[], options: ConvertToGoogleOptions = {}): GooglePrompt {
  const system: Array<{ text: string }> = [];
  const contents: GoogleContent[] = [];
  const warnings: CallWarning[] = [];
  const calls = new Map<string, { name: string; apiId?: string | undefined }>();
  for (const message of prompt) {
    const converted = googleMessageCache.get(message, convertMessage);
    switch (converted.role) {
      case 'system':
        if (converted.text) system.push({ text: converted.text });
        break;
      case 'user':
        warnings.push(...converted.warnings);
        push(contents, 'user', converted.parts);
        break;
      case 'assistant':
        for (const call of converted.calls) calls.set(call.toolCallId, { name: call.name, apiId: call.apiId });
        push(contents, 'model', modelParts(converted, options.placeholderSignatures === true));
        break;
      case 'tool': {
        warnings.push(...converted.warnings);
        const responses = converted.results.map((result): GooglePart => {
          const call = calls.get(result.toolCallId);
          return { functionResponse: { ...(call?.apiId ? { id: call.apiId } : {}), name: call?.name ?? result.toolName, response: result.response } };
        });
        pushResponses(contents, [...responses, ...converted.images]);
        break;
      }
    }
  }
  return { ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}), contents, warnings };
}
