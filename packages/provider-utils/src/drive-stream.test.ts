import { isAbortError, ProviderError } from '@cairn/core/errors';
import type { LanguageModelV1StreamPart } from '@cairn/core/spec';
import { collectStream } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { callProvider, driveProviderStream, type ProviderStreamInput } from './drive-stream.js';

const finishPart: LanguageModelV1StreamPart = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
};

async function* items(values: string[], failAfter?: Error): AsyncGenerator<string> {
  for (const value of values) yield value;
  if (failAfter) throw failAfter;
}

function input(overrides: Partial<ProviderStreamInput<string>>): ProviderStreamInput<string> {
  return {
    warnings: [],
    items: () => items(['Hel', 'lo']),
    map: (item) => [{ type: 'text-delta', id: 't', delta: item }],
    finish: () => [finishPart],
    toError: (error, details) => new ProviderError(`wrapped: ${(error as Error).message}`, { provider: 'test', isRetryable: true, responseStarted: details.responseStarted }),
    ...overrides,
  };
}

async function rejection(stream: AsyncIterable<unknown>): Promise<unknown> {
  return collectStream(stream as AsyncIterable<LanguageModelV1StreamPart>).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('driveProviderStream', () => {
  it('stream-start with the warnings, the mapped parts, then the closing parts', async () => {
    const warnings = [{ type: 'other' as const, message: 'w' }];
    const parts = await collectStream(driveProviderStream(input({ warnings })));
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'text-delta', 'text-delta', 'finish']);
    expect(parts[0]).toEqual({ type: 'stream-start', warnings });
  });

  it('tells the closing parts whether content went out (for an incomplete-stream error)', async () => {
    const seen: boolean[] = [];
    const finish = (details: { responseStarted: boolean }) => {
      seen.push(details.responseStarted);
      return [];
    };
    await collectStream(driveProviderStream(input({ items: () => items([]), finish })));
    await collectStream(driveProviderStream(input({ finish })));
    expect(seen).toEqual([false, true]);
  });

  it('takes the items of a complete JSON answer too (a promise of an array)', async () => {
    const parts = await collectStream(driveProviderStream(input({ items: async () => ['whole'] })));
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'text-delta', 'finish']);
  });

  it('a failure after the response started is an in-band error part, and the stream ends there', async () => {
    const parts = await collectStream(driveProviderStream(input({ items: () => items(['Hel'], new TypeError('terminated')) })));
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'text-delta', 'error']);
    const error = (parts.at(-1) as { error: ProviderError }).error;
    expect([error.message, error.responseStarted]).toEqual(['wrapped: terminated', true]);
  });

  it('asks the provider whether content went out, when it can tell better than "an item arrived"', async () => {
    const parts = await collectStream(driveProviderStream(input({ items: () => items(['ping'], new Error('cut')), responseStarted: () => false })));
    expect((parts.at(-1) as { error: ProviderError }).error.responseStarted).toBe(false);
  });

  it('stops after an error part of the mapper, without the closing parts', async () => {
    const map = (item: string): LanguageModelV1StreamPart[] => (item === 'lo' ? [{ type: 'error', error: new Error('in band') }] : [{ type: 'text-delta', id: 't', delta: item }]);
    const parts = await collectStream(driveProviderStream(input({ items: () => items(['Hel', 'lo', 'ignored']), map })));
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'text-delta', 'error']);
  });

  it('an abort is rethrown unwrapped, whether the SDK throws or ends quietly', async () => {
    const controller = new AbortController();
    const throwing = driveProviderStream(input({ abortSignal: controller.signal, items: () => items(['Hel'], new Error('Request was aborted.')) }));
    const quiet = driveProviderStream(input({ abortSignal: controller.signal, items: () => items(['Hel']) }));
    controller.abort();
    const [thrown, ended] = [await rejection(throwing), await rejection(quiet)];
    expect(thrown).toBe(controller.signal.reason);
    expect(ended).toBe(controller.signal.reason);
    expect(ProviderError.isInstance(thrown)).toBe(false);
  });
});

describe('callProvider', () => {
  it('returns the result, converts failures, and rethrows aborts unwrapped', async () => {
    const toError = (error: unknown) => new ProviderError(`converted: ${(error as Error).message}`, { provider: 'test' });
    expect(await callProvider(async () => 42, { toError })).toBe(42);
    const failed = await callProvider(() => Promise.reject(new Error('500')), { toError }).catch((error: unknown) => error);
    expect((failed as Error).message).toBe('converted: 500');
    const controller = new AbortController();
    controller.abort();
    const aborted = await callProvider(() => Promise.reject(new Error('fetch aborted')), { toError, abortSignal: controller.signal }).catch((error: unknown) => error);
    expect(isAbortError(aborted)).toBe(true);
  });
});
