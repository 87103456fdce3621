import { ProviderError } from '@cairn/core';
import { fixtureResponse, listProviderFixtures, startFixtureServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAI } from '../src/index.js';
import { expectWellFormed } from './fixture-invariants.js';
import { collect, context, describeError, rejection, simplePrompt, summarize } from './helpers.js';

const files = listProviderFixtures('openai-responses');
let server: Awaited<ReturnType<typeof startFixtureServer>>;
beforeAll(async () => {
  server = await startFixtureServer((request) => fixtureResponse(String(request.headers['x-fixture'])));
});
afterAll(() => server.close());

const provider = createOpenAI({ api: 'responses' });
function open(file: string, modelId = 'gpt-5') {
  return provider.languageModel(modelId, context(server.url)).doStream({ prompt: simplePrompt, headers: { 'x-fixture': file } });
}

describe('every recorded Responses API response', () => {
  it('covers the whole fixture folder', () => {
    expect(files.length).toBe(15);
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
      expect(summarize(parts)).toMatchSnapshot();
    });
  }
});

describe('Responses API stream mapping', () => {
  it('keeps the reasoning item id and encrypted content on reasoning-end, and the call item id on tool-call', async () => {
    const parts = await collect((await open('openai-responses/stream-reasoning-encrypted-function-call.sse')).stream);
    expect(summarize(parts)).toMatchInlineSnapshot(`
      [
        {
          "type": "stream-start",
          "warnings": [],
        },
        {
          "id": "resp_017eebd5643f46d6016a4b35ded2d8819b987d6306020497ce",
          "modelId": "gpt-5.2-2025-12-11",
          "timestamp": "2026-07-06T04:58:06.000Z",
          "type": "response-metadata",
        },
        {
          "id": "rs_017eebd5643f46d6016a4b35df548c819b98c75bcad2f28e4e",
          "providerMetadata": {
            "openai": {
              "itemId": "rs_017eebd5643f46d6016a4b35df548c819b98c75bcad2f28e4e",
            },
          },
          "type": "reasoning-start",
        },
        {
          "id": "rs_017eebd5643f46d6016a4b35df548c819b98c75bcad2f28e4e",
          "providerMetadata": {
            "openai": {
              "encryptedContent": "gAAAAABqSzXg…(1036)",
              "itemId": "rs_017eebd5643f46d6016a4b35df548c819b98c75bcad2f28e4e",
            },
          },
          "type": "reasoning-end",
        },
        {
          "id": "call_wMUhph1s1bedjPJraJvGw62X",
          "toolName": "lookupVerificationCode",
          "type": "tool-input-start",
        },
        {
          "count": 8,
          "delta": "{"label":"issue-11239"}",
          "id": "call_wMUhph1s1bedjPJraJvGw62X",
          "type": "tool-input-delta",
        },
        {
          "id": "call_wMUhph1s1bedjPJraJvGw62X",
          "type": "tool-input-end",
        },
        {
          "input": "{"label":"issue-11239"}",
          "providerMetadata": {
            "openai": {
              "itemId": "fc_017eebd5643f46d6016a4b35e00698819b8e15db8d3200f1b8",
            },
          },
          "toolCallId": "call_wMUhph1s1bedjPJraJvGw62X",
          "toolName": "lookupVerificationCode",
          "type": "tool-call",
        },
        {
          "finishReason": {
            "raw": "completed",
            "unified": "tool-calls",
          },
          "providerMetadata": {
            "openai": {
              "responseId": "resp_017eebd5643f46d6016a4b35ded2d8819b987d6306020497ce",
            },
          },
          "type": "finish",
          "usage": {
            "inputTokens": {
              "cacheRead": 0,
              "noCache": 84,
              "total": 84,
            },
            "outputTokens": {
              "reasoning": 15,
              "text": 24,
              "total": 39,
            },
          },
        },
      ]
    `);
  });

  it('streams reasoning summaries as one reasoning part, paragraphs between summary parts', async () => {
    const parts = await collect((await open('openai-responses/stream-reasoning-summary.sse')).stream);
    const reasoning = parts.map((part) => (part.type === 'reasoning-delta' ? part.delta : '')).join('');
    expect(reasoning.startsWith('**Providing street crossing instructions**')).toBe(true);
    expect(reasoning.split('\n\n**')).toHaveLength(4);
    expect(parts.filter((part) => part.type === 'reasoning-start')).toHaveLength(1);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
  });

  it('finishes an incomplete response with length', async () => {
    const parts = await collect((await open('openai-responses/stream-incomplete-max-output-tokens.sse')).stream);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
  });

  it('turns an in-stream error event into an in-band, non-retryable error part', async () => {
    const parts = await collect((await open('openai-responses/stream-error-insufficient-quota.sse')).stream);
    const last = parts.at(-1);
    expect(last?.type).toBe('error');
    expect(describeError(last?.type === 'error' ? last.error : undefined)).toMatchObject({ code: 'insufficient_quota', isRetryable: false, responseStarted: true });
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });

  it('reads cached input tokens and keeps built-in web search calls out of the parts', async () => {
    const parts = await collect((await open('openai-responses/stream-web-search.sse')).stream);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.usage.inputTokens).toEqual({ total: 9463, noCache: 1143, cacheRead: 8320, cacheWrite: undefined });
    expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
  });

  it('maps the error bodies: a 400 model_not_found, a 401, and a 429 insufficient_quota that waiting does not fix', async () => {
    const notFound = (await rejection(open('openai-responses/error-400-model-not-found.json'))) as ProviderError;
    expect([notFound.status, notFound.code, notFound.isRetryable, notFound.requestId]).toEqual([400, 'model_not_found', false, 'req_5b160c26ff8ce5544c5fd8b680254b4b']);
    const quota = (await rejection(open('openai-responses/error-429-insufficient-quota.json'))) as ProviderError;
    expect([quota.status, quota.code, quota.isRetryable, quota.retryAfterMs]).toEqual([429, 'insufficient_quota', false, undefined]);
  });

  it('sends one representative stateless request body', async () => {
    const result = await provider.languageModel('gpt-5', context(server.url)).doStream({
      prompt: simplePrompt,
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'tool', toolName: 'get_weather' },
      maxOutputTokens: 2048,
      reasoningEffort: 'low',
      promptCacheKey: 'agent-1234',
      headers: { 'x-fixture': 'openai-responses/stream-function-call.sse' },
    });
    await collect(result.stream);
    const request = server.requests.at(-1)!;
    expect(request.url).toBe('/v1/responses');
    expect(request.body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": "You are a coding agent.",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "What is the weather in Edinburgh?",
                "type": "input_text",
              },
            ],
            "role": "user",
          },
        ],
        "max_output_tokens": 2048,
        "model": "gpt-5",
        "prompt_cache_key": "agent-1234",
        "reasoning": {
          "effort": "low",
          "summary": "auto",
        },
        "store": false,
        "stream": true,
        "tool_choice": {
          "name": "get_weather",
          "type": "function",
        },
        "tools": [
          {
            "description": "Weather of a city.",
            "name": "get_weather",
            "parameters": {
              "properties": {
                "city": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
        ],
      }
    `);
  });
});
