import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamResult } from '@cairn/core';
import type { Response as OpenAIResponse, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { responseToStreamEvents } from './map-openai-responses-response.js';
import { createOpenAIResponsesStreamState, mapOpenAIResponsesStreamEvent } from './map-openai-responses-stream-event.js';
import { headersToRecord, type OpenAIModelConfig, openAIRequestOptions } from './openai-client.js';
import { convertOpenAIError } from './openai-error.js';
import { buildOpenAIResponsesRequest } from './openai-responses-request.js';
import { runOpenAIStream } from './run-openai-stream.js';

/** A model on the Responses API (`POST /responses`), used statelessly (`store: false`). */
export class OpenAIResponsesLanguageModel implements LanguageModelV1 {
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
    const { body, warnings } = buildOpenAIResponsesRequest(this.modelId, options, this.#config);
    const errorContext = this.#config.errorContext;
    const abortSignal = options.abortSignal;
    let opened: { data: AsyncIterable<ResponseStreamEvent>; response: Response };
    try {
      const client = await this.#config.getClient();
      opened = await client.responses.create(body, openAIRequestOptions(options)).withResponse();
    } catch (error) {
      throw convertOpenAIError(error, errorContext, { abortSignal });
    }
    const { data, response } = opened;
    const state = createOpenAIResponsesStreamState(this.#config.provider, response.headers.get('x-request-id') ?? undefined);
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const stream = runOpenAIStream<ResponseStreamEvent>({
      warnings,
      items: isJson ? async () => responseToStreamEvents((await response.json()) as OpenAIResponse) : () => data,
      map: (event) => mapOpenAIResponsesStreamEvent(event, state),
      finish: () => (state.finished ? [] : undefined),
      errorContext,
      abortSignal,
    });
    return { stream, request: { body }, response: { headers: headersToRecord(response.headers) } };
  }
}
