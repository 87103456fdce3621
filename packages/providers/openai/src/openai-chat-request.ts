import type { CallWarning, LanguageModelV1CallOptions, LanguageModelV1FunctionTool } from '@cairn/core/spec';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { isReasoningModel, type OpenAIModelConfig, requestedReasoningEffort } from './openai-client.js';

function toolChoice(choice: LanguageModelV1CallOptions['toolChoice']): ChatCompletionToolChoiceOption | undefined {
  if (!choice) return undefined;
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.toolName } };
  return choice.type;
}

/**
 * The tool list's wire form, made once per list: the runtime sends the same list object every step
 * of a mode, so the same array reaches the body and its JSON is made once too (request-body-json.ts).
 */
const chatToolLists = new WeakMap<LanguageModelV1FunctionTool[], ChatCompletionTool[]>();
function chatTools(tools: LanguageModelV1FunctionTool[]): ChatCompletionTool[] {
  let converted = chatToolLists.get(tools);
  if (!converted) {
    converted = tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
    chatToolLists.set(tools, converted);
  }
  return converted;
}

/** The Chat Completions request body for one call. Pure. */
export function buildOpenAIChatRequest(
  modelId: string,
  options: LanguageModelV1CallOptions,
  config: Pick<OpenAIModelConfig, 'provider' | 'isOpenAI' | 'sendPromptCacheKey' | 'catalogEntry'>,
): { body: ChatCompletionCreateParamsStreaming; warnings: CallWarning[] } {
  const { messages, warnings } = convertToOpenAIChatMessages(options.prompt);
  const reasoning = config.isOpenAI && isReasoningModel(modelId, config.catalogEntry);
  const effort = requestedReasoningEffort(options);
  const body: Record<string, unknown> = { model: modelId, messages };

  if (options.maxOutputTokens !== undefined) {
    // OpenAI deprecated max_tokens (reasoning models reject it); compatible servers know max_tokens.
    body[config.isOpenAI ? 'max_completion_tokens' : 'max_tokens'] = options.maxOutputTokens;
  }
  for (const [setting, field, value] of [
    ['temperature', 'temperature', options.temperature],
    ['topP', 'top_p', options.topP],
  ] as const) {
    if (value === undefined) continue;
    if (reasoning) warnings.push({ type: 'unsupported-setting', setting, message: `${modelId} is a reasoning model and does not take ${setting}; it was not sent.` });
    else body[field] = value;
  }
  if (options.stopSequences?.length) body.stop = options.stopSequences;
  if (effort !== undefined) {
    if (reasoning || !config.isOpenAI) body.reasoning_effort = effort;
    else warnings.push({ type: 'unsupported-setting', setting: 'reasoningEffort', message: `${modelId} does not reason; reasoningEffort was not sent.` });
  }
  if (options.tools?.length) {
    body.tools = chatTools(options.tools);
    const choice = toolChoice(options.toolChoice);
    if (choice) body.tool_choice = choice;
  }
  if (config.sendPromptCacheKey && options.promptCacheKey) body.prompt_cache_key = options.promptCacheKey;
  // Provider options are raw wire fields (`service_tier`, `verbosity`, ...), for what the spec has no name for.
  Object.assign(body, options.providerOptions?.[config.provider] ?? {});
  body.stream = true;
  body.stream_options = { include_usage: true };
  return { body: body as unknown as ChatCompletionCreateParamsStreaming, warnings };
}
