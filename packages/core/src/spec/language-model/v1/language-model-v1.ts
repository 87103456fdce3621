import type { LanguageModelV1CallOptions } from './call-options.js';
import type { LanguageModelV1StreamPart } from './stream-part.js';

export interface LanguageModelV1StreamResult {
  stream: AsyncIterable<LanguageModelV1StreamPart>;
  /** The request body as sent, for debugging and snapshot tests. */
  request?: { body?: unknown };
  response?: { headers?: Record<string, string> };
}

/**
 * The contract every model adapter implements. `doStream` is called by the runtime, not by users:
 * it must forward `abortSignal`, must not retry (the runtime owns retries) and should report
 * failures either by rejecting (before the stream started) or as an in-band `error` part.
 */
export interface LanguageModelV1 {
  readonly specificationVersion: 'v1';
  /** Provider id, e.g. `openai`, `anthropic`, `google`, `ollama`. */
  readonly provider: string;
  readonly modelId: string;
  doStream(options: LanguageModelV1CallOptions): Promise<LanguageModelV1StreamResult>;
}
