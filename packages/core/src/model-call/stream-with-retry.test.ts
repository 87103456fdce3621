import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../spec/errors/index.js';
import type { LanguageModelV1, LanguageModelV1StreamPart } from '../spec/language-model/v1/index.js';
import { retryDelayMs, defaultRetryPolicy } from './retry-policy.js';
import { streamWithRetry } from './stream-with-retry.js';

function modelOf(attempts: Array<() => AsyncGenerator<LanguageModelV1StreamPart> | Promise<never>>): LanguageModelV1 & { count: number } {
  const model = {
    specificationVersion: 'v1' as const, provider: 'test', modelId: 'm', count: 0,
    async doStream() {
      const attempt = attempts[model.count++];
      if (!attempt) throw new Error('no attempt left');
      const stream = attempt();
      if (stream instanceof Promise) return stream;
      return { stream };
    },
  };
  return model;
}

const collect = async (stream: AsyncIterable<LanguageModelV1StreamPart>) => {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
};

describe('streamWithRetry', () => {
  it('retries 429/529/503 with the retry-after delay and then succeeds', async () => {
    const model = modelOf([
      () => Promise.reject(new ProviderError('rate', { provider: 'test', status: 429, retryAfterMs: 20 })),
      () => Promise.reject(new ProviderError('overloaded', { provider: 'test', status: 529 })),
      () => Promise.reject(new ProviderError('unavailable', { provider: 'test', status: 503 })),
      async function* () {
        yield { type: 'text-delta', id: 't', delta: 'ok' };
      },
    ]);
    const delays: number[] = [];
    const parts = await collect(streamWithRetry(model, { prompt: [] }, { policy: { initialDelayMs: 1, maxDelayMs: 2 }, onRetry: ({ delayMs }) => void delays.push(delayMs) }));
    expect(parts).toEqual([{ type: 'text-delta', id: 't', delta: 'ok' }]);
    expect(model.count).toBe(4);
    expect(delays[0]).toBeGreaterThanOrEqual(20);
  });

  it('never retries 400/401 and never after content started', async () => {
    const unauthorized = modelOf([() => Promise.reject(new ProviderError('bad key', { provider: 'test', status: 401 }))]);
    const [failure] = await collect(streamWithRetry(unauthorized, { prompt: [] }, { policy: { initialDelayMs: 1 } }));
    expect(failure?.type).toBe('error');
    expect(unauthorized.count).toBe(1);
    const started = modelOf([
      async function* () {
        yield { type: 'tool-input-start', id: 'c', toolName: 'x' };
        yield { type: 'error', error: new ProviderError('dropped', { provider: 'test', isRetryable: true }) };
      },
    ]);
    const parts = await collect(streamWithRetry(started, { prompt: [] }, { policy: { initialDelayMs: 1 } }));
    expect(started.count).toBe(1);
    const last = parts.at(-1);
    expect(last?.type === 'error' && ProviderError.isInstance(last.error) && last.error.responseStarted).toBe(true);
  });

  it('surfaces an absurd retry-after instead of waiting for it', async () => {
    const model = modelOf([() => Promise.reject(new ProviderError('later', { provider: 'test', status: 429, retryAfterMs: 3_600_000 }))]);
    const [failure] = await collect(streamWithRetry(model, { prompt: [] }));
    expect(failure?.type === 'error' && String((failure.error as Error).message)).toMatch(/asked to wait 3600 s/);
  });

  it('aborts the wait between attempts', async () => {
    const controller = new AbortController();
    const model = modelOf([() => Promise.reject(new ProviderError('rate', { provider: 'test', status: 429, retryAfterMs: 60_000 }))]);
    const pending = collect(streamWithRetry(model, { prompt: [] }, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(pending).rejects.toThrow('cancelled');
  });

  it('aborts an idle stream with the watchdog and retries it', async () => {
    const model = modelOf([
      async function* () {
        await new Promise((resolve) => setTimeout(resolve, 10_000));
      },
      async function* () {
        yield { type: 'text-delta', id: 't', delta: 'fresh' };
      },
    ]);
    const parts = await collect(streamWithRetry(model, { prompt: [] }, { policy: { idleTimeoutMs: 50, initialDelayMs: 1 } }));
    expect(parts.map((part) => part.type)).toEqual(['text-delta']);
  });

  describe('the idle watchdog on a clock the test moves', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('lets a stream run longer than the idle timeout while its parts keep coming', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const model = modelOf([
        async function* () {
          for (let index = 0; index < 6; index++) {
            await sleep(40);
            yield { type: 'text-delta', id: 't', delta: String(index) };
          }
        },
      ]);
      const pending = collect(streamWithRetry(model, { prompt: [] }, { policy: { idleTimeoutMs: 100, initialDelayMs: 1 } }));
      await vi.advanceTimersByTimeAsync(400);
      const parts = await pending;
      expect(parts.map((part) => (part.type === 'text-delta' ? part.delta : part.type))).toEqual(['0', '1', '2', '3', '4', '5']);
      expect(model.count).toBe(1);
    });

    it('aborts a gap between two parts that is longer than the idle timeout, with the stream_idle error', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const model = modelOf([
        async function* () {
          yield { type: 'response-metadata', id: 'r1' };
          await sleep(90);
          yield { type: 'response-metadata', id: 'r2' };
          await sleep(150);
          yield { type: 'text-delta', id: 't', delta: 'too late' };
        },
        () => Promise.reject(new ProviderError('down', { provider: 'test', status: 400 })),
      ]);
      const pending = collect(streamWithRetry(model, { prompt: [] }, { policy: { idleTimeoutMs: 100, initialDelayMs: 1, maxDelayMs: 1 } }));
      await vi.advanceTimersByTimeAsync(1_000);
      const parts = await pending;
      // The first gap (90 ms) is within the timeout; the second (150 ms) is not: the attempt is
      // aborted as idle (retryable, no content yet), and the retry fails for good.
      expect(parts.slice(0, 2).map((part) => part.type)).toEqual(['response-metadata', 'response-metadata']);
      expect(model.count).toBe(2);
      const last = parts.at(-1);
      expect(last?.type === 'error' && ProviderError.isInstance(last.error) && last.error.attempts?.some((error) => ProviderError.isInstance(error) && error.code === 'stream_idle')).toBe(true);
    });
  });

  it('computes jittered exponential delays', () => {
    expect(retryDelayMs(defaultRetryPolicy, 1, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(defaultRetryPolicy, 3, undefined, () => 1)).toBe(4000);
    expect(retryDelayMs(defaultRetryPolicy, 1, 7000, () => 0)).toBe(7000);
  });
});
