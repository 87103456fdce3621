export { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
export { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
export { chatCompletionToChunks } from './map-openai-chat-completion.js';
export {
  createOpenAIChatStreamState, finishOpenAIChatStream, mapOpenAIChatStreamChunk, type OpenAIChatStreamState,
} from './map-openai-chat-stream-chunk.js';
export { mapOpenAIChatFinishReason, mapOpenAIResponsesFinishReason } from './map-openai-finish-reason.js';
export { responseToStreamEvents } from './map-openai-responses-response.js';
export {
  createOpenAIResponsesStreamState, mapOpenAIResponsesStreamEvent, type OpenAIResponsesStreamState,
} from './map-openai-responses-stream-event.js';
export { mapOpenAIChatUsage, mapOpenAIResponsesUsage } from './map-openai-usage.js';
export { OpenAIChatLanguageModel } from './openai-chat-language-model.js';
export type { OpenAIModelConfig } from './openai-client.js';
export {
  createOpenAICompatible, ollama, ollamaDefaultBaseURL, type OpenAICompatibleProvider, type OpenAICompatibleProviderSettings,
} from './openai-compatible-provider.js';
export { maxEmbeddingsPerCall, OpenAIEmbeddingModel } from './openai-embedding-model.js';
export { convertOpenAIError, maxRetryAfterMs, type OpenAIErrorContext, parseRetryAfter, toOpenAIProviderError } from './openai-error.js';
export { findOpenAIModel, openAIModels } from './openai-models.js';
export { createOpenAI, openai, openAIDefaultBaseURL, type OpenAIApi, type OpenAIProvider, type OpenAIProviderSettings } from './openai-provider.js';
export { OpenAIResponsesLanguageModel } from './openai-responses-language-model.js';
