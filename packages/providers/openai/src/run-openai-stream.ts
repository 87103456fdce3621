import { type CallWarning, type LanguageModelV1StreamPart, ProviderError } from '@cairn/core';
import { convertOpenAIError, type OpenAIErrorContext } from './openai-error.js';

export interface RunOpenAIStreamInput<Item> {
  warnings: CallWarning[];
  /** The SDK stream, or the items of a complete JSON answer. */
  items: () => AsyncIterable<Item> | Iterable<Item> | Promise<Iterable<Item>>;
  map: (item: Item) => LanguageModelV1StreamPart[];
  /** The closing parts, or undefined when the stream ended before the model finished. */
  finish: () => LanguageModelV1StreamPart[] | undefined;
  errorContext: OpenAIErrorContext;
  abortSignal?: AbortSignal | undefined;
}

/**
 * Drives one SDK stream through a pure mapper. Failures after the response started become an
 * in-band `error` part (and end the stream); an abort is rethrown as is, never wrapped. The SDK
 * ends its iteration quietly on abort, so the signal is checked once more at the end.
 */
export async function* runOpenAIStream<Item>(input: RunOpenAIStreamInput<Item>): AsyncGenerator<LanguageModelV1StreamPart> {
  yield { type: 'stream-start', warnings: input.warnings };
  let started = false;
  try {
    for await (const item of await input.items()) {
      started = true;
      for (const part of input.map(item)) {
        yield part;
        if (part.type === 'error') return;
      }
    }
  } catch (error) {
    const converted = convertOpenAIError(error, input.errorContext, { abortSignal: input.abortSignal, responseStarted: started });
    if (!ProviderError.isInstance(converted)) throw converted;
    yield { type: 'error', error: converted };
    return;
  }
  if (input.abortSignal?.aborted) throw input.abortSignal.reason;
  const end = input.finish();
  if (end) {
    yield* end;
    return;
  }
  yield {
    type: 'error',
    error: new ProviderError(`${input.errorContext.providerName} stream ended before the model finished its answer.`, {
      provider: input.errorContext.provider,
      isRetryable: true,
      responseStarted: started,
      endpoint: input.errorContext.baseURL,
      code: 'stream_incomplete',
    }),
  };
}
