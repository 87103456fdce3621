import type { ProviderError } from '@cairn/core/errors';
import type { CallWarning, LanguageModelV1StreamPart } from '@cairn/core/spec';
import { rethrowIfAborted, throwIfAborted } from './abort.js';

export interface ProviderStreamInput<Item> {
  /** Warnings of the request, sent with `stream-start`. */
  warnings: CallWarning[];
  /** The SDK's stream, or the items of a complete JSON answer (read inside, so its failures are in-band). */
  items: () => AsyncIterable<Item> | Iterable<Item> | Promise<Iterable<Item>>;
  /** The provider's pure mapper from one SDK item to stream parts (it keeps its own state). */
  map: (item: Item) => LanguageModelV1StreamPart[];
  /** The closing parts once the SDK stream ended: `finish`, or an in-band error when the answer is incomplete. */
  finish: (details: { responseStarted: boolean }) => LanguageModelV1StreamPart[];
  /** The provider's error for a failure after the response started. Never called for an abort. */
  toError: (error: unknown, details: { responseStarted: boolean }) => ProviderError;
  /** Whether content went out already (replay is then not free). Default: any item arrived. */
  responseStarted?: () => boolean;
  abortSignal?: AbortSignal | undefined;
}

/**
 * Drives one SDK stream through a provider's mapper: `stream-start` first, an in-band `error` part
 * for a failure after the response started (the stream ends after an error part, as the spec
 * says), the provider's closing parts at the end. An abort is rethrown unwrapped, never an error
 * part; the SDKs end their iteration quietly on abort, so the signal is checked once more.
 */
export async function* driveProviderStream<Item>(input: ProviderStreamInput<Item>): AsyncGenerator<LanguageModelV1StreamPart> {
  yield { type: 'stream-start', warnings: input.warnings };
  let itemArrived = false;
  try {
    for await (const item of await input.items()) {
      itemArrived = true;
      for (const part of input.map(item)) {
        yield part;
        if (part.type === 'error') return;
      }
    }
  } catch (error) {
    rethrowIfAborted(error, input.abortSignal);
    yield { type: 'error', error: input.toError(error, { responseStarted: input.responseStarted?.() ?? itemArrived }) };
    return;
  }
  throwIfAborted(input.abortSignal);
  yield* input.finish({ responseStarted: input.responseStarted?.() ?? itemArrived });
}

/**
 * Runs the request that opens a call (or an embeddings request): an abort is rethrown unwrapped,
 * any other failure becomes the provider's error, so `doStream` rejects with it.
 */
export async function callProvider<Result>(
  request: () => Promise<Result>,
  options: { abortSignal?: AbortSignal | undefined; toError: (error: unknown) => unknown },
): Promise<Result> {
  try {
    return await request();
  } catch (error) {
    rethrowIfAborted(error, options.abortSignal);
    throw options.toError(error);
  }
}
