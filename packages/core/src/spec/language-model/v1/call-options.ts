import type { JSONSchema, ProviderOptions } from '../../json.js';
import type { ModelMessage } from './prompt.js';

export interface LanguageModelV1FunctionTool {
  type: 'function';
  name: string;
  description: string;
  inputSchema: JSONSchema;
}

export type LanguageModelV1ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; toolName: string };

export interface LanguageModelV1CallOptions {
  /** System messages first, then the conversation. */
  prompt: ModelMessage[];
  tools?: LanguageModelV1FunctionTool[];
  toolChoice?: LanguageModelV1ToolChoice;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  /** Reasoning effort for models that reason; providers map it to their own setting. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /**
   * A key that stays the same for every request of one conversation, so providers with keyed prompt
   * caches (OpenAI `prompt_cache_key`) route requests to the same cache.
   */
  promptCacheKey?: string;
  /** Validated model parameters from the catalog (`ModelSelection.params`). */
  params?: Record<string, string | number | boolean>;
  headers?: Record<string, string | undefined>;
  abortSignal?: AbortSignal;
  providerOptions?: ProviderOptions;
}
