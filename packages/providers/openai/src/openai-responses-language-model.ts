import type { LanguageModelV1, LanguageModelV1CallOptions, LanguageModelV1StreamResult } from '@cairn/core/spec';
import { callProvider, driveProviderStream, headersToRecord, sdkRequestOptions } from '@cairn/provider-utils';
import type { Response as OpenAIResponse, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { responseToStreamEvents } from './map-openai-responses-response.js';
import { createOpenAIResponsesStreamState, mapOpenAIResponsesStreamEvent } from './map-openai-responses-stream-event.js';
import type { OpenAIModelConfig } from './openai-client.js';
import { openAIIncompleteStreamError, toOpenAIProviderError } from './openai-error.js';
import { buildOpenAIResponsesRequest } from './openai-responses-request.js';

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
    const { data, response } = await callProvider(
      async () => (await this.#config.getClient()).responses.create(body, sdkRequestOptions(options)).withResponse(),
      { abortSignal, toError: (error) => toOpenAIProviderError(error, errorContext) },
    );
    const state = createOpenAIResponsesStreamState(this.#config.provider, response.headers.get('x-request-id') ?? undefined);
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const stream = driveProviderStream<ResponseStreamEvent>({
      warnings,
      items: isJson ? async () => responseToStreamEvents((await response.json()) as OpenAIResponse) : () => data,
      map: (event) => mapOpenAIResponsesStreamEvent(event, state),
      // The mapper emits `finish` (or an error) itself on the response's last event.
      finish: ({ responseStarted }) => (state.finished ? [] : [{ type: 'error', error: openAIIncompleteStreamError(errorContext, responseStarted) }]),
      toError: (error, details) => toOpenAIProviderError(error, errorContext, details),
      abortSignal,
    });
    return { stream, request: { body }, response: { headers: headersToRecord(response.headers) } };
  }
}
