import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamResult } from '@cairn/core/spec';
import { callProvider, driveProviderStream, headersToRecord, type SdkRequestOptions, sdkRequestOptions } from '@cairn/provider-utils';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { chatCompletionToChunks } from './map-openai-chat-completion.js';
import { createOpenAIChatStreamState, finishOpenAIChatStream, mapOpenAIChatStreamChunk } from './map-openai-chat-stream-chunk.js';
import { buildOpenAIChatRequest } from './openai-chat-request.js';
import type { OpenAIModelConfig } from './openai-client.js';
import { openAIIncompleteStreamError, toOpenAIProviderError } from './openai-error.js';
import { requestBodyJson, type SharedFields } from './request-body-json.js';

/** The body fields that are the same objects, or arrays of them, step after step (see request-body-json.ts). */
const sharedBodyFields: SharedFields = new Map([
  ['messages', 'items'],
  ['tools', 'whole'],
]);

/** A model on the Chat Completions API (`POST /chat/completions`), OpenAI's or a compatible server's. */
export class OpenAIChatLanguageModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly modelId: string;
  readonly #config: OpenAIModelConfig;

  constructor(modelId: string, config: OpenAIModelConfig) {
    this.modelId = modelId;
    this.#config = config;
  }

  get provider(): string {
    return this.#config.provider;
  }

  async doStream(options: LanguageModelV1CallOptions): Promise<LanguageModelV1StreamResult> {
    const { body, warnings } = buildOpenAIChatRequest(this.modelId, options, this.#config);
    const errorContext = this.#config.errorContext;
    const abortSignal = options.abortSignal;
    const { data, response } = await callProvider(
      async () => (await this.#config.getClient()).chat.completions.create(body, withBodyText(body, sdkRequestOptions(options))).withResponse(),
      { abortSignal, toError: (error) => toOpenAIProviderError(error, errorContext) },
    );
    const state = createOpenAIChatStreamState(response.headers.get('x-request-id') ?? undefined);
    // Some compatible servers ignore `stream: true` and answer with one JSON completion.
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const stream = driveProviderStream<ChatCompletionChunk>({
      warnings,
      items: isJson ? async () => chatCompletionToChunks((await response.json()) as ChatCompletion) : () => data,
      map: (chunk) => mapOpenAIChatStreamChunk(chunk, state),
      finish: ({ responseStarted }) => finishOpenAIChatStream(state) ?? [{ type: 'error', error: openAIIncompleteStreamError(errorContext, responseStarted) }],
      toError: (error, details) => toOpenAIProviderError(error, errorContext, details),
      abortSignal,
    });
    return { stream, request: { body }, response: { headers: headersToRecord(response.headers) } };
  }
}

/**
 * The request options with the body as JSON text, made from cached parts. `create` spreads the
 * options over `{ body }`, so this text is what the SDK sends; a string body with a content-type
 * header goes out as is instead of through the SDK's own JSON.stringify.
 */
function withBodyText(body: object, requestOptions: SdkRequestOptions): SdkRequestOptions & { body: string } {
  return { ...requestOptions, body: requestBodyJson(body as Record<string, unknown>, sharedBodyFields), headers: { ...requestOptions.headers, 'content-type': 'application/json' } };
}
