import type { CallWarning, LanguageModelV1CallOptions } from '@cairn/core/spec';
import type { ResponseCreateParamsStreaming, Tool, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
import { isReasoningModel, type OpenAIModelConfig, requestedReasoningEffort } from './openai-client.js';

function toolChoice(choice: LanguageModelV1CallOptions['toolChoice']): ToolChoiceOptions | ToolChoiceFunction | undefined {
  if (!choice) return undefined;
  if (choice.type === 'tool') return { type: 'function', name: choice.toolName };
  return choice.type;
}

/**
 * The Responses API request body for one call. Pure. Stateless on purpose (`store: false`): the
 * conversation lives in Cairn's store, and reasoning travels back as encrypted content.
 */
export function buildOpenAIResponsesRequest(
  modelId: string,
  options: LanguageModelV1CallOptions,
  config: Pick<OpenAIModelConfig, 'provider' | 'sendPromptCacheKey' | 'catalogEntry' | 'reasoningSummary'>,
): { body: ResponseCreateParamsStreaming; warnings: CallWarning[] } {
  const { input, warnings } = convertToOpenAIResponsesInput(options.prompt);
  const reasoning = isReasoningModel(modelId, config.catalogEntry);
  const effort = requestedReasoningEffort(options);
  const body: Record<string, unknown> = { model: modelId, input, store: false };
  // Only reasoning models have encrypted reasoning; the others reject the include.
  if (reasoning) body.include = ['reasoning.encrypted_content'];
  if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
  for (const [setting, field, value] of [
    ['temperature', 'temperature', options.temperature],
    ['topP', 'top_p', options.topP],
  ] as const) {
    if (value === undefined) continue;
    if (reasoning) warnings.push({ type: 'unsupported-setting', setting, message: `${modelId} is a reasoning model and does not take ${setting}; it was not sent.` });
    else body[field] = value;
  }
  if (options.stopSequences?.length) {
    warnings.push({ type: 'unsupported-setting', setting: 'stopSequences', message: 'The Responses API has no stop sequences; they were not sent.' });
  }
  if (reasoning) {
    const settings: Record<string, string> = {};
    if (effort !== undefined) settings.effort = effort;
    if (config.reasoningSummary) settings.summary = config.reasoningSummary;
    if (Object.keys(settings).length > 0) body.reasoning = settings;
  } else if (effort !== undefined) {
    warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${modelId} does not reason; reasoningEffort was not sent.` });
  }
  if (options.tools?.length) {
    body.tools = options.tools.map(
      (tool): Tool => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false }),
    );
    const choice = toolChoice(options.toolChoice);
    if (choice) body.tool_choice = choice;
  }
  if (config.sendPromptCacheKey && options.promptCacheKey) body.prompt_cache_key = options.promptCacheKey;
  Object.assign(body, options.providerOptions?.[config.provider] ?? {});
  body.stream = true;
  return { body: body as unknown as ResponseCreateParamsStreaming, warnings };
}
