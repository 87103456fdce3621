import type { CallWarning, JSONSchema, LanguageModelV1CallOptions, ModelCatalogEntry } from '@cairn/core/spec';
import { applyAnthropicCacheBreakpoints } from './anthropic-cache-breakpoints.js';
import { resolveAnthropicTokens } from './anthropic-thinking.js';
import { type AnthropicMessage, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/** The streaming Messages request body we send (a subset of `MessageCreateParamsStreaming`). */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
  messages: AnthropicMessage[];
  tools?: Array<{ name: string; description: string; input_schema: JSONSchema; cache_control?: { type: 'ephemeral' } }>;
  tool_choice?: { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };
  output_config?: { effort: 'low' | 'medium' | 'high' };
  stream: true;
}

function toolChoice(choice: LanguageModelV1CallOptions['toolChoice']): AnthropicRequestBody['tool_choice'] {
  if (!choice) return undefined;
  if (choice.type === 'required') return { type: 'any' };
  if (choice.type === 'tool') return { type: 'tool', name: choice.toolName };
  return { type: choice.type };
}

/**
 * The request body for one call: converted messages, tools, thinking and cache breakpoints.
 * Pure. `providerOptions.anthropic.cacheBreakpoints: false` turns the breakpoints off.
 */
export function buildAnthropicRequest(
  modelId: string,
  options: LanguageModelV1CallOptions,
  entry: ModelCatalogEntry | undefined,
): { body: AnthropicRequestBody; warnings: CallWarning[] } {
  const prompt = convertToAnthropicMessages(options.prompt);
  const tokens = resolveAnthropicTokens(options, entry);
  const warnings: CallWarning[] = [...prompt.warnings, ...tokens.warnings];
  const tools = (options.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
  const body: AnthropicRequestBody = { model: modelId, max_tokens: tokens.maxTokens, messages: prompt.messages, stream: true };
  if (prompt.system.length > 0) body.system = prompt.system;
  if (tools.length > 0) body.tools = tools;
  const choice = tools.length > 0 ? toolChoice(options.toolChoice) : undefined;
  if (choice) body.tool_choice = choice;
  if (tokens.thinking) {
    body.thinking = tokens.thinking;
    if (tokens.effort) body.output_config = { effort: tokens.effort };
    // The API rejects custom sampling while thinking.
    if (options.temperature !== undefined) warnings.push({ type: 'unsupported-setting', setting: 'temperature', message: 'temperature is ignored while extended thinking is on.' });
    if (options.topP !== undefined) warnings.push({ type: 'unsupported-setting', setting: 'topP', message: 'topP is ignored while extended thinking is on.' });
  } else {
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.topP !== undefined) body.top_p = options.topP;
  }
  if (options.stopSequences?.length) body.stop_sequences = options.stopSequences;
  if (options.providerOptions?.anthropic?.cacheBreakpoints !== false) {
    applyAnthropicCacheBreakpoints({ system: body.system ?? [], tools: body.tools ?? [], messages: body.messages });
  }
  return { body, warnings };
}
