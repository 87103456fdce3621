export type { LanguageModelV1, LanguageModelV1StreamResult } from './language-model-v1.js';
export type { LanguageModelV1CallOptions, LanguageModelV1FunctionTool, LanguageModelV1ToolChoice } from './call-options.js';
export type { CallWarning, FinishReason, LanguageModelV1StreamPart, LanguageModelV1StreamPartType, LanguageModelV1Usage } from './stream-part.js';
export type {
  AssistantModelMessage, ImageDataPart, ImagePart, ImageUrlPart, ModelMessage, ReasoningPart, SystemModelMessage, TextPart, ToolCallPart,
  ToolModelMessage, ToolResultOutput, ToolResultPart, UserModelMessage,
} from './prompt.js';
