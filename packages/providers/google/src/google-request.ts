import type { CallWarning, JSONSchema, LanguageModelV1CallOptions, ModelCatalogEntry } from '@cairn/core/spec';
import { convertToGoogleMessages, type GoogleContent } from './convert-to-google-messages.js';
import { type GoogleThinkingConfig, resolveGoogleThinking } from './google-thinking.js';

/** The `generateContentStream` parameters we build (minus the per-call abort signal and headers). */
export interface GoogleRequest {
  model: string;
  contents: GoogleContent[];
  config: {
    systemInstruction?: { parts: Array<{ text: string }> };
    tools?: Array<{ functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: JSONSchema }> }>;
    toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
    maxOutputTokens?: number;
    temperature?: number;
    topP?: number;
    stopSequences?: string[];
    thinkingConfig?: GoogleThinkingConfig;
    /** We pass no callable tools; disabling makes the SDK never run a tool loop of its own. */
    automaticFunctionCalling: { disable: true };
    /** The SDK would otherwise re-request a dropped stream itself; the runtime owns retries. */
    automaticContinuation: false;
  };
}

function toolConfig(choice: LanguageModelV1CallOptions['toolChoice']): GoogleRequest['config']['toolConfig'] {
  if (!choice) return undefined;
  if (choice.type === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice.type === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice.type === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.toolName] } };
}

/**
 * The request for one call. Pure. Tool schemas go as `parametersJsonSchema` (plain JSON Schema,
 * supported by the SDK), so no conversion to Gemini's OpenAPI subset is needed.
 */
export function buildGoogleRequest(modelId: string, options: LanguageModelV1CallOptions, entry: ModelCatalogEntry | undefined): { request: GoogleRequest; warnings: CallWarning[] } {
  const prompt = convertToGoogleMessages(options.prompt, { placeholderSignatures: /gemini-3/.test(modelId) });
  const thinking = resolveGoogleThinking(modelId, options, entry);
  const warnings = [...prompt.warnings, ...thinking.warnings];
  const config: GoogleRequest['config'] = { automaticFunctionCalling: { disable: true }, automaticContinuation: false };
  if (prompt.systemInstruction) config.systemInstruction = prompt.systemInstruction;
  const tools = options.tools ?? [];
  if (tools.length > 0) {
    config.tools = [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema })) }];
    const choice = toolConfig(options.toolChoice);
    if (choice) config.toolConfig = choice;
  }
  if (options.maxOutputTokens !== undefined) config.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) config.temperature = options.temperature;
  if (options.topP !== undefined) config.topP = options.topP;
  if (options.stopSequences?.length) config.stopSequences = options.stopSequences;
  if (thinking.thinkingConfig) config.thinkingConfig = thinking.thinkingConfig;
  return { request: { model: modelId, contents: prompt.contents, config }, warnings };
}
