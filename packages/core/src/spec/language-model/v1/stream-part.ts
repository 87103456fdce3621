import type { ProviderMetadata } from '../../json.js';

/** Why the model stopped: a unified value for the runtime and the provider's raw value for humans. */
export interface FinishReason {
  unified: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  raw: string | undefined;
}

/**
 * Token usage as providers report it. Input is split into no-cache / cache-read / cache-write and
 * output into text / reasoning; any figure a provider does not report is undefined.
 */
export interface LanguageModelV1Usage {
  inputTokens: { total: number | undefined; noCache: number | undefined; cacheRead: number | undefined; cacheWrite: number | undefined };
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined };
  raw?: unknown;
}

export interface CallWarning {
  type: 'unsupported-setting' | 'unsupported-tool' | 'other';
  setting?: string;
  message: string;
}

/** The stream vocabulary: noun-verb names with start / delta / end lifecycles. */
export type LanguageModelV1StreamPart =
  | { type: 'stream-start'; warnings: CallWarning[] }
  | { type: 'response-metadata'; id?: string; modelId?: string; timestamp?: Date; requestId?: string }
  | { type: 'text-start'; id: string; providerMetadata?: ProviderMetadata }
  | { type: 'text-delta'; id: string; delta: string; providerMetadata?: ProviderMetadata }
  | { type: 'text-end'; id: string; providerMetadata?: ProviderMetadata }
  | { type: 'reasoning-start'; id: string; providerMetadata?: ProviderMetadata }
  | { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: ProviderMetadata }
  /** `signature` / `redactedData` arrive here when the provider sends them (see ReasoningPart). */
  | { type: 'reasoning-end'; id: string; signature?: string; redactedData?: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool-input-start'; id: string; toolName: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-input-end'; id: string }
  /** A complete tool call; `input` is the JSON text of the arguments exactly as the model sent it. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string; providerMetadata?: ProviderMetadata }
  | { type: 'finish'; finishReason: FinishReason; usage: LanguageModelV1Usage; providerMetadata?: ProviderMetadata }
  /** An error in band: the stream ends after it. */
  | { type: 'error'; error: unknown }
  | { type: 'raw'; rawValue: unknown };

export type LanguageModelV1StreamPartType = LanguageModelV1StreamPart['type'];
