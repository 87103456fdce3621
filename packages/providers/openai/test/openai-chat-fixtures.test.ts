import { ProviderError } from '@cairn/core';
import { fixtureResponse, listProviderFixtures, startFixtureServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAI } from '../src/index.js';
import { expectWellFormed } from './fixture-invariants.js';
import { collect, context, describeError, rejection, simplePrompt, summarize } from './helpers.js';

const files = listProviderFixtures('openai-chat');
let server: Awaited<ReturnType<typeof startFixtureServer>>;
// Each request names the fixture to answer with in a header, so tests can run in any order.
beforeAll(async () => {
  server = await startFixtureServer((request) => fixtureResponse(String(request.headers['x-fixture'])));
});
afterAll(() => server.close());

const provider = createOpenAI({ api: 'chat' });
function open(file: string) {
  return provider.languageModel('gpt-4o', context(server.url)).doStream({ prompt: simplePrompt, headers: { 'x-fixture': file } });
}

describe('every recorded Chat Completions response', () => {
  it('covers the whole fixture folder', () => {
    expect(files.length).toBe(21);
  });

  for (const file of files) {
    it(`replays ${file}`, async () => {
      if (file.includes('/error-')) {
        const error = await rejection(open(file));
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(describeError(error)).toMatchSnapshot();
        return;
      }
      const parts = await collect((await open(file)).stream);
      expectWellFormed(parts);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(summarize(parts)).toMatchSnapshot();
    });
  }
});

describe('Chat Completions stream mapping', () => {
  it('streams two parallel tool calls keyed by index, then completes both', async () => {
    const parts = await collect((await open('openai-chat/stream-tool-calls-parallel.sse')).stream);
    expect(summarize(parts)).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63",
          "modelId": "gpt-4o-2024-08-06",
          "timestamp": "2024-09-26T10:22:58.000Z",
          "type": "response-metadata",
        },
        {
          "id": "call_JMW1whyEaYG438VE1OIflxA2",
          "toolName": "GetWeatherArgs",
          "type": "tool-input-start",
        },
        {
          "count": 11,
          "delta": "{"city": "Edinburgh", "country": "GB", "units": "c"}",
          "id": "call_JMW1whyEaYG438VE1OIflxA2",
          "type": "tool-input-delta",
        },
        {
          "id": "call_DNYTawLBoN8fj3KN6qU9N1Ou",
          "toolName": "get_stock_price",
          "type": "tool-input-start",
        },
        {
          "count": 9,
          "delta": "{"ticker": "AAPL", "exchange": "NASDAQ"}",
          "id": "call_DNYTawLBoN8fj3KN6qU9N1Ou",
          "type": "tool-input-delta",
        },
        {
          "id": "call_JMW1whyEaYG438VE1OIflxA2",
          "type": "tool-input-end",
        },
        {
          "input": "{"city": "Edinburgh", "country": "GB", "units": "c"}",
          "toolCallId": "call_JMW1whyEaYG438VE1OIflxA2",
          "toolName": "GetWeatherArgs",
          "type": "tool-call",
        },
        {
          "id": "call_DNYTawLBoN8fj3KN6qU9N1Ou",
          "type": "tool-input-end",
        },
        {
          "input": "{"ticker": "AAPL", "exchange": "NASDAQ"}",
          "toolCallId": "call_DNYTawLBoN8fj3KN6qU9N1Ou",
          "toolName": "get_stock_price",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "tool_calls",
            "unified": "tool-calls",
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "noCache": 149,
              "total": 149,
            },
            "outputTokens": {
              "reasoning": 0,
              "text": 60,
              "total": 60,
            },
          },
        },
      ]
    `);
  });

  it('reports cached and reasoning tokens and the content filter of an Azure stream', async () => {
    const parts = await collect((await open('openai-chat/stream-azure-content-filter.sse')).stream);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.usage).toMatchObject({
      inputTokens: { total: 15, cacheRead: 0, noCache: 15 },
      outputTokens: { total: 78, reasoning: 64, text: 14 },
    });
  });

  it('uses choice 0 of a response with several choices', async () => {
    const parts = await collect((await open('openai-chat/stream-multiple-choices.sse')).stream);
    const text = parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');
    expect(JSON.parse(text)).toEqual({ city: 'San Francisco', temperature: 65, units: 'f' });
    expect(parts.filter((part) => part.type === 'text-start')).toHaveLength(1);
  });

  it('shows a refusal as text marked as a refusal', async () => {
    const parts = await collect((await open('openai-chat/stream-refusal.sse')).stream);
    expect(parts.find((part) => part.type === 'text-start')).toEqual({ type: 'text-start', id: 'refusal-0', providerMetadata: { openai: { refusal: true } } });
  });

  it('maps a 429 with retry-after-ms to a retryable ProviderError with the recorded advice', async () => {
    const error = await rejection(open('openai-chat/error-429-rate-limit.json'));
    expect(describeError(error)).toMatchInlineSnapshot(`
      {
        "code": "rate_limit_exceeded",
        "isRetryable": true,
        "message": "OpenAI request failed with status 429: Rate limit reached for gpt-3.5-turbo in organization org-zIQe0qsKlsW7cksvlHpU411T on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing. Retry after 20000 ms.",
        "name": "ProviderError",
        "requestId": "req_967f5451e5d64f96e3e87520ddcae8ed",
        "responseStarted": false,
        "retryAfterMs": 20000,
        "status": 429,
      }
    `);
    expect((error as ProviderError).body).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
  });

  it('maps 400 and 401 to non-retryable errors with the parsed body', async () => {
    const badRequest = (await rejection(open('openai-chat/error-400-invalid-function-parameters.json'))) as ProviderError;
    expect([badRequest.status, badRequest.isRetryable, badRequest.code]).toEqual([400, false, 'invalid_function_parameters']);
    expect(badRequest.body).toMatchObject({ param: 'tools[0].function.parameters' });
    const unauthorized = (await rejection(open('openai-chat/error-401-invalid-api-key.json'))) as ProviderError;
    expect([unauthorized.status, unauthorized.isRetryable]).toEqual([401, false]);
    expect(unauthorized.message).toContain('Check the API key of OpenAI.');
  });

  it('sends one representative request body', async () => {
    const result = await provider.languageModel('gpt-4o', context(server.url)).doStream({
      prompt: simplePrompt,
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      toolChoice: { type: 'auto' },
      maxOutputTokens: 1024,
      temperature: 0.2,
      promptCacheKey: 'agent-1234',
      headers: { 'x-fixture': 'openai-chat/stream-text-usage.sse' },
    });
    await collect(result.stream);
    const request = server.requests.at(-1)!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual(result.request?.body);
    expect(request.body).toMatchInlineSnapshot(`
      {
        "max_completion_tokens": 1024,
        "messages": [
          {
            "content": "You are a coding agent.",
            "role": "system",
          },
          {
            "content": "What is the weather in Edinburgh?",
            "role": "user",
          },
        ],
        "model": "gpt-4o",
        "prompt_cache_key": "agent-1234",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
        "temperature": 0.2,
        "tool_choice": "auto",
        "tools": [
          {
            "function": {
              "description": "Weather of a city.",
              "name": "get_weather",
              "parameters": {
                "properties": {
                  "city": {
                    "type": "string",
                  },
                },
                "required": [
                  "city",
                ],
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });
});
