import type { CallWarning, JSONValue, ModelMessage, ProviderMetadata, ToolResultOutput } from '@cairn/core';

/** A Gemini `Part` as we send it. */
export type GooglePart =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
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

function responseOf(output: ToolResultOutput, warnings: CallWarning[]): Record<string, unknown> {
  // Google's convention: the result under `output`, a failure under `error`.
  switch (output.type) {
    case 'text':
    case 'json':
      return { output: output.value };
    case 'error-text':
    case 'error-json':
      return { error: output.value };
    case 'content': {
      if (output.value.some((item) => item.type === 'image')) warnings.push({ type: 'other', message: 'Images in tool results are not sent to Gemini; only their text is.' });
      return { output: output.value.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n') };
    }
  }
}

function argsOf(input: JSONValue): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
}

function push(contents: GoogleContent[], role: 'user' | 'model', parts: GooglePart[]): void {
  if (parts.length === 0) return;
  const last = contents[contents.length - 1];
  if (last && last.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

/**
 * Neutral messages to Gemini `contents`. Pure. Thought signatures go back on the same part they
 * came on (text or functionCall); function responses open the following user turn and carry the
 * name (and the API's call id, when it sent one) of the call they answer.
 */
export function convertToGoogleMessages(prompt: ModelMessage[], options: ConvertToGoogleOptions = {}): GooglePrompt {
  const system: Array<{ text: string }> = [];
  const contents: GoogleContent[] = [];
  const warnings: CallWarning[] = [];
  const calls = new Map<string, { name: string; apiId?: string }>();
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        if (message.content) system.push({ text: message.content });
        break;
      case 'user':
        push(
          contents,
          'user',
          // Empty text parts are rejected by the API.
          message.content.flatMap((part): GooglePart[] => (part.type === 'text' ? (part.text ? [{ text: part.text }] : []) : [{ inlineData: { mimeType: part.mediaType, data: part.data } }])),
        );
        break;
      case 'assistant': {
        const parts: GooglePart[] = [];
        for (const part of message.content) {
          if (part.type === 'reasoning') {
            const signature = part.signature ?? googleMetadata(part.providerMetadata).thoughtSignature;
            if (part.text || signature) parts.push({ text: part.text, thought: true, ...(signature ? { thoughtSignature: signature } : {}) });
          } else if (part.type === 'text') {
            const { thoughtSignature } = googleMetadata(part.providerMetadata);
            if (part.text || thoughtSignature) parts.push({ text: part.text, ...(thoughtSignature ? { thoughtSignature } : {}) });
          } else {
            const { thoughtSignature, functionCallId } = googleMetadata(part.providerMetadata);
            calls.set(part.toolCallId, { name: part.toolName, apiId: functionCallId });
            parts.push({
              functionCall: { ...(functionCallId ? { id: functionCallId } : {}), name: part.toolName, args: argsOf(part.input) },
              ...(thoughtSignature ? { thoughtSignature } : {}),
            });
          }
        }
        const signed = parts.some((part) => 'thoughtSignature' in part && part.thoughtSignature);
        const firstCall = parts.find((part) => 'functionCall' in part);
        if (options.placeholderSignatures && !signed && firstCall && 'functionCall' in firstCall) firstCall.thoughtSignature = PLACEHOLDER_THOUGHT_SIGNATURE;
        push(contents, 'model', parts);
        break;
      }
      case 'tool': {
        const responses: GooglePart[] = message.content.map((part) => {
          const call = calls.get(part.toolCallId);
          return { functionResponse: { ...(call?.apiId ? { id: call.apiId } : {}), name: call?.name ?? part.toolName, response: responseOf(part.output, warnings) } };
        });
        const last = contents[contents.length - 1];
        // Function responses come before any other part of the user turn.
        if (last && last.role === 'user') {
          const firstOther = last.parts.findIndex((part) => !('functionResponse' in part));
          last.parts.splice(firstOther === -1 ? last.parts.length : firstOther, 0, ...responses);
        }
        else contents.push({ role: 'user', parts: responses });
        break;
      }
    }
  }
  return { ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}), contents, warnings };
}
