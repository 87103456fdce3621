import { isAbortError, ProviderError } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../src/index.js';
import { collect, replay, userPrompt } from './helpers.js';

async function rejection(file: string): Promise<ProviderError> {
  const server = await startFixtureServer([fixtureResponse(file)]);
  try {
    const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel('claude-haiku-4-5');
    const error = await model.doStream({ prompt: userPrompt }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // One request only: the SDK's own retries are off, the runtime owns retries.
    expect(server.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    return error as ProviderError;
  } finally {
    await server.close();
  }
}

function facts(error: ProviderError) {
  return { message: error.message, status: error.status, isRetryable: error.isRetryable, retryAfterMs: error.retryAfterMs, requestId: error.requestId, code: error.code, body: error.body };
}

describe('anthropic HTTP errors', () => {
  it('400 invalid_request_error: not retryable (x-should-retry: false)', async () => {
    expect(facts(await rejection('anthropic/error-400-invalid-request.json'))).toMatchInlineSnapshot(`
      {
        "body": {
          "error": {
            "message": "messages.0: Input does not match the expected shape.",
            "type": "invalid_request_error",
          },
          "type": "error",
        },
        "code": "invalid_request_error",
        "isRetryable": false,
        "message": "Anthropic API error 400 (invalid_request_error): messages.0: Input does not match the expected shape.",
        "requestId": "req_01BjwuzUpsYgKjQJguJyvKb3",
        "retryAfterMs": undefined,
        "status": 400,
      }
    `);
  });

  it('401 names the fix', async () => {
    expect(facts(await rejection('anthropic/error-401-authentication.json'))).toMatchInlineSnapshot(`
      {
        "body": {
          "error": {
            "message": "invalid x-api-key",
            "type": "authentication_error",
          },
          "request_id": "req_011CVa2kcigwBtMFroktdQ2q",
          "type": "error",
        },
        "code": "authentication_error",
        "isRetryable": false,
        "message": "Anthropic API error 401 (authentication_error): invalid x-api-key. Check ANTHROPIC_API_KEY or pass providers.anthropic.apiKey.",
        "requestId": "req_011CVa2kcigwBtMFroktdQ2q",
        "retryAfterMs": undefined,
        "status": 401,
      }
    `);
  });

  it('429 is retryable with retry-after 7 s', async () => {
    const error = await rejection('anthropic/error-429-rate-limit.json');
    expect(error.retryAfterMs).toBe(7000);
    expect(facts(error)).toMatchInlineSnapshot(`
      {
        "body": {
          "error": {
            "message": "Number of requests has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please try again later or contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.",
            "type": "rate_limit_error",
          },
          "type": "error",
        },
        "code": "rate_limit_error",
        "isRetryable": true,
        "message": "Anthropic API error 429 (rate_limit_error): Number of requests has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please try again later or contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.",
        "requestId": "req_01VRXnTtDN7bkGVjXbQNgzcL",
        "retryAfterMs": 7000,
        "status": 429,
      }
    `);
  });

  it('529 overloaded is retryable', async () => {
    expect(facts(await rejection('anthropic/error-529-overloaded.json'))).toMatchInlineSnapshot(`
      {
        "body": {
          "error": {
            "message": "Overloaded",
            "type": "overloaded_error",
          },
          "type": "error",
        },
        "code": "overloaded_error",
        "isRetryable": true,
        "message": "Anthropic API error 529 (overloaded_error): Overloaded.",
        "requestId": "req_01PTvVW3st1XAwA3EymUCdq9",
        "retryAfterMs": undefined,
        "status": 529,
      }
    `);
  });

  it('x-should-retry: false wins over a retryable status, and retry-after-ms is read', async () => {
    const server = await startFixtureServer([
      { status: 503, headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'retry-after-ms': '1500' }, body: '{"type":"error","error":{"type":"api_error","message":"Down"}}' },
    ]);
    try {
      const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel('claude-haiku-4-5');
      const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
      expect([error.status, error.isRetryable, error.retryAfterMs]).toEqual([503, false, 1500]);
    } finally {
      await server.close();
    }
  });

  it('an absurd retry-after is capped, and the message says so', async () => {
    const server = await startFixtureServer([
      { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '86400' }, body: '{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}' },
    ]);
    try {
      const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel('claude-haiku-4-5');
      const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
      expect(error.retryAfterMs).toBe(600_000);
      expect(error.message).toContain('asked to wait 86400 s; capped at 600 s');
      expect(error.isRetryable).toBe(true);
    } finally {
      await server.close();
    }
  });
});

const head = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":1}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Partial"}}',
  '',
  '',
].join('\n');

describe('anthropic mid-stream failures', () => {
  it('an in-stream `event: error` overloaded_error is an in-band, retryable ProviderError', async () => {
    const body = `${head}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_stream_1"}\n\n`;
    const { parts } = await replay([{ headers: { 'content-type': 'text/event-stream', 'request-id': 'req_http_1' }, body }]);
    expect(parts.map((part) => part.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'error']);
    const error = (parts.at(-1) as { error: ProviderError }).error;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect({ message: error.message, status: error.status, isRetryable: error.isRetryable, responseStarted: error.responseStarted, requestId: error.requestId, code: error.code }).toMatchInlineSnapshot(`
      {
        "code": "overloaded_error",
        "isRetryable": true,
        "message": "Anthropic API error 529 (overloaded_error) during the stream: Overloaded.",
        "requestId": "req_http_1",
        "responseStarted": true,
        "status": 529,
      }
    `);
  });

  it('a stream dropped inside a tool_use yields an error part and no tool-call', async () => {
    const file = fixtureResponse('anthropic/stream-tool-use.sse');
    const text = Buffer.from(file.body).toString('utf8');
    const dropAfterBytes = Buffer.byteLength(text.slice(0, text.indexOf('on\\": \\"P')));
    // Small paced chunks, so the bytes before the drop really reach the client before the reset.
    const { parts } = await replay([{ ...file, dropAfterBytes, chunkSize: 64, chunkDelayMs: 1 }]);
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
    expect(parts.some((part) => part.type === 'tool-input-delta')).toBe(true);
    const last = parts.at(-1) as { type: string; error: ProviderError };
    expect(last.type).toBe('error');
    expect({ isRetryable: last.error.isRetryable, responseStarted: last.error.responseStarted, name: last.error.name }).toEqual({ isRetryable: true, responseStarted: true, name: 'ProviderError' });
  });

  it('a body that closes cleanly before message_stop is an incomplete-stream error', async () => {
    const { parts } = await replay([{ headers: { 'content-type': 'text/event-stream' }, body: head }]);
    const last = parts.at(-1) as { type: string; error: ProviderError };
    expect([last.type, last.error.code, last.error.responseStarted]).toEqual(['error', 'incomplete_stream', true]);
  });

  it('an abort mid-stream rejects with the abort, never a ProviderError', async () => {
    const file = fixtureResponse('anthropic/stream-tool-use.sse');
    const stallAfterBytes = Buffer.from(file.body).indexOf('event: content_block_stop');
    const server = await startFixtureServer([{ ...file, stallAfterBytes }]);
    try {
      const controller = new AbortController();
      const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel('claude-haiku-4-5');
      const result = await model.doStream({ prompt: userPrompt, abortSignal: controller.signal });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const part of result.stream) {
          seen.push(part.type);
          if (part.type === 'text-delta') controller.abort();
        }
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isAbortError(error)).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(false);
      expect(seen).not.toContain('finish');
      expect(seen).not.toContain('error');
    } finally {
      await server.close();
    }
  });

  it('an abort before the response rejects doStream with the abort', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    try {
      const controller = new AbortController();
      controller.abort();
      const model = createAnthropic({ apiKey: 'test-key', baseURL: server.url }).languageModel('claude-haiku-4-5');
      const error = await model.doStream({ prompt: userPrompt, abortSignal: controller.signal }).catch((caught: unknown) => caught);
      expect(isAbortError(error)).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(false);
      await collect((async function* () {})());
    } finally {
      await server.close();
    }
  });
});
