import { ConfigurationError, ProviderError } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAI, createOpenAICompatible, maxEmbeddingsPerCall, ollama } from '../src/index.js';
import { collect, rejection, simplePrompt } from './helpers.js';

describe('ollama and other OpenAI-compatible servers', () => {
  it('streams from OLLAMA_BASE_URL with any model id, no key, and only standard fields', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-tool-call-strict.sse')]);
    const model = ollama.languageModel('qwen3:8b', { settings: {}, env: { OLLAMA_BASE_URL: `${server.url}/v1` } });
    expect(model.provider).toBe('ollama');
    const parts = await collect(
      (await model.doStream({ prompt: simplePrompt, promptCacheKey: 'agent-1', maxOutputTokens: 256, reasoningEffort: 'low' })).stream,
    );
    await server.close();
    expect(parts.find((part) => part.type === 'tool-call')).toMatchObject({ toolName: 'get_weather' });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers['openai-organization']).toBeUndefined();
    expect(request.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 256,
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
        "model": "qwen3:8b",
        "reasoning_effort": "low",
        "stream": true,
        "stream_options": {
          "include_usage": true,
        },
      }
    `);
  });

  it('says how to start or point to the server when it is not running', async () => {
    const server = await startFixtureServer([]);
    const url = `${server.url}/v1`;
    await server.close();
    const model = ollama.languageModel('qwen3', { settings: { baseURL: url }, env: {} });
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    // Nothing listens on this machine: a retry would only delay the error.
    expect(error.isRetryable).toBe(false);
    expect(error.provider).toBe('ollama');
    expect(error.message).toBe(`Cannot reach Ollama at ${url} (ECONNREFUSED). Start Ollama (\`ollama serve\`), or point OLLAMA_BASE_URL or providers.ollama.baseURL to it.`);
  });

  it('requires the key of a provider that declares apiKeyEnv, and sends it', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-text-usage.sse')]);
    const router = createOpenAICompatible({ id: 'router', name: 'Router', baseURL: `${server.url}/api/v1`, apiKeyEnv: 'ROUTER_API_KEY', headers: { 'x-title': 'Cairn' } });
    expect(() => router.languageModel('some/model', { settings: {}, env: {} })).toThrowError(ConfigurationError);
    expect(() => router.languageModel('some/model', { settings: {}, env: {} })).toThrowError('set ROUTER_API_KEY or pass providers.router.apiKey');
    const model = router.languageModel('some/model', { settings: {}, env: { ROUTER_API_KEY: 'rk-1' } });
    await collect((await model.doStream({ prompt: simplePrompt })).stream);
    await server.close();
    expect(server.requests[0]?.url).toBe('/api/v1/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer rk-1');
    expect(server.requests[0]?.headers['x-title']).toBe('Cairn');
  });

  it('accepts a server that answers stream: true with one JSON completion', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/json-tool-calls-parallel.json')]);
    const model = ollama.languageModel('qwen3', { settings: { baseURL: `${server.url}/v1` }, env: {} });
    const parts = await collect((await model.doStream({ prompt: simplePrompt })).stream);
    await server.close();
    expect(parts.filter((part) => part.type === 'tool-call').map((part) => part.type === 'tool-call' && part.input)).toEqual(['{"count": 1}', '{"count": 2}']);
  });
});

describe('embeddings', () => {
  function embeddingServer() {
    return startFixtureServer((request) => {
      const input = (request.body as { input: string[] }).input;
      // Answer out of order on purpose: the adapter must sort by index.
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, index] })).reverse();
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data, model: 'm', usage: { prompt_tokens: input.length, total_tokens: input.length } }) };
    });
  }

  it('embeds with text-embedding-3-small as float vectors in input order', async () => {
    const server = await embeddingServer();
    const model = createOpenAI().embeddingModel('text-embedding-3-small', { settings: { apiKey: 'sk', baseURL: `${server.url}/v1` }, env: {} });
    expect([model.dimensions, model.maxEmbeddingsPerCall]).toEqual([1536, 2048]);
    const result = await model.doEmbed({ values: ['a', 'bb', 'ccc'] });
    await server.close();
    expect(result).toEqual({ embeddings: [[1, 0], [2, 1], [3, 2]], usage: { tokens: 3 } });
    expect(server.requests[0]?.url).toBe('/v1/embeddings');
    expect(server.requests[0]?.body).toEqual({ model: 'text-embedding-3-small', input: ['a', 'bb', 'ccc'], encoding_format: 'float' });
  });

  it('splits more values than one call takes into batches of maxEmbeddingsPerCall', async () => {
    const server = await embeddingServer();
    const model = ollama.embeddingModel('nomic-embed-text', { settings: { baseURL: `${server.url}/v1` }, env: {} });
    const values = Array.from({ length: maxEmbeddingsPerCall + 5 }, (_, index) => `v${index}`);
    const result = await model.doEmbed({ values });
    await server.close();
    expect(server.requests.map((request) => (request.body as { input: string[] }).input.length)).toEqual([2048, 5]);
    expect(result.embeddings).toHaveLength(values.length);
    expect(result.embeddings[2048]).toEqual([5, 0]);
  });
});
