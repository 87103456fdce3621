import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError } from '@cairn/core';
import { fixtureResponse, providerFixturesDir, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAI } from '../src/index.js';
import { collect, context, describeError, rejection, simplePrompt, summarize } from './helpers.js';

async function replay(api: 'chat' | 'responses', file: string, overrides: Parameters<typeof fixtureResponse>[1] = {}) {
  const server = await startFixtureServer([fixtureResponse(file, overrides)]);
  try {
    const model = createOpenAI({ api }).languageModel('gpt-5', context(server.url));
    const result = await model.doStream({ prompt: simplePrompt });
    return { parts: await collect(result.stream), requests: server.requests };
  } finally {
    await server.close();
  }
}

describe('streams cut at awkward byte boundaries', () => {
  for (const [api, file] of [
    ['chat', 'openai-chat/stream-tool-calls-parallel.sse'],
    ['chat', 'openai-chat/stream-azure-content-filter.sse'],
    ['responses', 'openai-responses/stream-reasoning-text-function-call-phase.sse'],
  ] as const) {
    it(`gives the same parts for ${file} served in 7-byte pieces`, async () => {
      const whole = await replay(api, file);
      const pieces = await replay(api, file, { chunkSize: 7 });
      expect(summarize(pieces.parts)).toEqual(summarize(whole.parts));
      // The exact deltas survive too, including multi-byte characters split across pieces.
      expect(pieces.parts).toEqual(whole.parts);
    });
  }

  it('splits UTF-8 sequences without mangling text (the fixture has curly quotes and an em dash)', async () => {
    const { parts } = await replay('responses', 'openai-responses/stream-reasoning-text-function-call-phase.sse', { chunkSize: 7 });
    const text = parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');
    expect(text).toBe('I’ll check the capital lookup tool for “PotatoLand.”');
  });
});

describe('a stream that drops', () => {
  it('mid tool call (Chat): an error part and no tool-call part for the cut call', async () => {
    const file = 'openai-chat/stream-tool-calls-parallel.sse';
    const body = readFileSync(join(providerFixturesDir(), file), 'utf8');
    // Cut inside the last chunk (the one with finish_reason). The fixture server destroys the socket
    // right after its last write, so small paced pieces make sure the bytes before the cut arrive.
    const cut = Buffer.byteLength(body.slice(0, body.indexOf('"finish_reason":"tool_calls"') - 40));
    const { parts } = await replay('chat', file, { dropAfterBytes: cut, chunkSize: 200, chunkDelayMs: 1 });
    expect(parts.filter((part) => part.type === 'tool-input-start').length).toBeGreaterThanOrEqual(1);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    const last = parts.at(-1);
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(describeError(error)).toMatchObject({ isRetryable: true, responseStarted: true });
  });

  it('mid function call (Responses): an error part and no tool-call part', async () => {
    const file = 'openai-responses/stream-function-call.sse';
    const body = readFileSync(join(providerFixturesDir(), file), 'utf8');
    const cut = Buffer.byteLength(body.slice(0, body.indexOf('event: response.function_call_arguments.done') + 30));
    const { parts } = await replay('responses', file, { dropAfterBytes: cut, chunkSize: 200, chunkDelayMs: 1 });
    expect(parts.filter((part) => part.type === 'tool-input-start')).toHaveLength(1);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.at(-1)?.type).toBe('error');
  });

  it('that ends cleanly but before the model finished is an error, not a finish', async () => {
    const file = 'openai-chat/stream-text-usage.sse';
    const body = readFileSync(join(providerFixturesDir(), file), 'utf8');
    const truncated = body.slice(0, body.indexOf('\n\n', body.length / 2) + 2);
    const server = await startFixtureServer([{ status: 200, headers: { 'content-type': 'text/event-stream' }, body: truncated }]);
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const parts = await collect((await model.doStream({ prompt: simplePrompt })).stream);
    await server.close();
    expect(describeError(parts.at(-1)?.type === 'error' ? parts.at(-1) && (parts.at(-1) as { error: unknown }).error : undefined)).toMatchObject({
      code: 'stream_incomplete',
      isRetryable: true,
    });
  });
});

describe('an error inside a 200 stream', () => {
  it('becomes an in-band, retryable ProviderError after the text that came before it', async () => {
    const body =
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n' +
      'data: {"error":{"message":"The server is overloaded","type":"server_error","code":null}}\n\n';
    const server = await startFixtureServer([{ status: 200, headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_mid' }, body }]);
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const result = await model.doStream({ prompt: simplePrompt });
    const parts = await collect(result.stream);
    await server.close();
    expect(result.response?.headers?.['x-request-id']).toBe('req_mid');
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'error']);
    expect(describeError((parts.at(-1) as { error: unknown }).error)).toMatchObject({
      message: 'OpenAI stream failed: The server is overloaded.',
      isRetryable: true,
      responseStarted: true,
      requestId: 'req_mid',
    });
  });
});

describe('aborts', () => {
  it('rethrows the abort reason mid-stream, unwrapped, and never emits an error part', async () => {
    const file = 'openai-chat/stream-text-usage.sse';
    const server = await startFixtureServer([fixtureResponse(file, { stallAfterBytes: 600 })]);
    const controller = new AbortController();
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const result = await model.doStream({ prompt: simplePrompt, abortSignal: controller.signal });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of result.stream) {
          seen.push(part.type);
          if (part.type === 'text-delta') controller.abort();
        }
      })(),
    );
    await server.close();
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    expect(seen).not.toContain('error');
  });

  it('rejects doStream with the abort reason when aborted before the request', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-text-usage.sse')]);
    const controller = new AbortController();
    controller.abort();
    const model = createOpenAI({ api: 'responses' }).languageModel('gpt-5', context(server.url));
    const error = await rejection(model.doStream({ prompt: simplePrompt, abortSignal: controller.signal }));
    await server.close();
    expect(error).toBe(controller.signal.reason);
    expect(ProviderError.isInstance(error)).toBe(false);
  });
});

describe('errors and retries', () => {
  it('never retries inside the SDK: one 500 is one request, a retryable ProviderError', async () => {
    const server = await startFixtureServer([{ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"The server had an error","type":"server_error"}}' }]);
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    await server.close();
    expect(server.requests).toHaveLength(1);
    expect([error.status, error.isRetryable]).toEqual([500, true]);
  });

  it.each([
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [408, true],
    [409, true],
    [413, false],
    [500, true],
    [503, true],
  ])('status %i is retryable: %s', async (status, retryable) => {
    const server = await startFixtureServer([{ status, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"nope"}}' }]);
    const model = createOpenAI({ api: 'responses' }).languageModel('gpt-5', context(server.url));
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    await server.close();
    expect([error.status, error.isRetryable, server.requests.length]).toEqual([status, retryable, 1]);
    if (status === 413) expect(error.code).toBe('context_length_exceeded');
  });

  it('keeps context_length_exceeded as the code, not retryable, so the runtime can compact', async () => {
    const body = '{"error":{"message":"This model\'s maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}';
    const server = await startFixtureServer([{ status: 400, headers: { 'content-type': 'application/json' }, body }]);
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    await server.close();
    expect([error.code, error.isRetryable]).toEqual(['context_length_exceeded', false]);
  });

  it('honours x-should-retry and caps an absurd retry-after (and says so)', async () => {
    const server = await startFixtureServer([
      { status: 400, headers: { 'content-type': 'application/json', 'x-should-retry': 'true' }, body: '{"error":{"message":"try again"}}' },
      { status: 503, headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'retry-after': '86400' }, body: '{"error":{"message":"down"}}' },
    ]);
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(server.url));
    const first = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    const second = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    await server.close();
    expect(first.isRetryable).toBe(true);
    expect(second.isRetryable).toBe(false);
    expect(second.retryAfterMs).toBe(600_000);
    expect(second.message).toContain('capped at 10 minutes');
  });

  it('names the base URL when nothing listens there (ECONNREFUSED), not retried on this machine', async () => {
    const server = await startFixtureServer([]);
    const url = server.url;
    await server.close();
    const model = createOpenAI({ api: 'chat' }).languageModel('gpt-4o', context(url));
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain(`${url}/v1`);
    expect(error.message).toContain('ECONNREFUSED');
  });
});
