import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamResult } from '@cairn/core';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { chatCompletionToChunks } from './map-openai-chat-completion.js';
import { createOpenAIChatStreamState, finishOpenAIChatStream, mapOpenAIChatStreamChunk } from './map-openai-chat-stream-chunk.js';
import { buildOpenAIChatRequest } from './openai-chat-request.js';
import { headersToRecord, type OpenAIModelConfig, openAIRequestOptions } from './openai-client.js';
import { convertOpenAIError } from './openai-error.js';
import { runOpenAIStream } from './run-openai-stream.js';

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
    let opened: { data: AsyncIterable<ChatCompletionChunk>; response: Response };
    try {
      const client = await this.#config.getClient();
      opened = await client.chat.completions.create(body, openAIRequestOptions(options)).withResponse();
    } catch (error) {
      throw convertOpenAIError(error, errorContext, { abortSignal });
    }
    const { data, response } = opened;
    const state = createOpenAIChatStreamState(response.headers.get('x-request-id') ?? undefined);
    // Some compatible servers ignore `stream: true` and answer with one JSON completion.
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const stream = runOpenAIStream<ChatCompletionChunk>({
      warnings,
      items: isJson ? async () => chatCompletionToChunks((await response.json()) as ChatCompletion) : () => data,
      map: (chunk) => mapOpenAIChatStreamChunk(chunk, state),
      finish: () => finishOpenAIChatStream(state),
      errorContext,
      abortSignal,
    });
    return { stream, request: { body }, response: { headers: headersToRecord(response.headers) } };
  }
}
