// Which HTTP client the SDK client we build uses: Node's own (node:http) by default in Node, a
// `fetch` setting instead when given (docs/providers.md, "Transport"). undici's fetch sends
// `sec-fetch-mode: cors` with every request and node:http sends no such header, so the server
// tells the two apart.
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { countingFetch, observeTransports, type TransportProbe, transportRule } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAI, createOpenAICompatible } from '../src/index.js';
import { collect, simplePrompt } from './helpers.js';

const streamText = fixtureResponse('openai-chat/stream-text-usage.sse');

describe('the OpenAI transport', () => {
  it('sends through node:http by default, and through the fetch setting (agent over factory) when given', async () => {
    const server = await startFixtureServer([streamText]);
    try {
      const probe: TransportProbe = async (factoryFetch, agentFetch) => {
        const provider = createOpenAI(factoryFetch ? { fetch: factoryFetch } : {});
        const model = provider.languageModel('gpt-4o', { settings: { apiKey: 'sk-test', baseURL: `${server.url}/v1`, api: 'chat', ...(agentFetch ? { fetch: agentFetch } : {}) }, env: {} });
        const parts = await collect((await model.doStream({ prompt: simplePrompt })).stream);
        expect(parts.some((part) => part.type === 'text-delta')).toBe(true);
        return server.requests.at(-1)!.headers['sec-fetch-mode'];
      };
      expect(await observeTransports(probe)).toEqual(transportRule);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('an OpenAI-compatible provider does the same', async () => {
    const server = await startFixtureServer([streamText]);
    try {
      const userFetch = countingFetch();
      const send = async (settings: { fetch?: typeof globalThis.fetch }) => {
        const provider = createOpenAICompatible({ id: 'local', baseURL: `${server.url}/v1`, ...settings });
        await collect((await provider.languageModel('qwen3', { settings: {}, env: {} }).doStream({ prompt: simplePrompt })).stream);
        return server.requests.at(-1)!.headers['sec-fetch-mode'];
      };
      expect(await send({})).toBeUndefined();
      expect(await send({ fetch: userFetch.fetch })).toBe('cors');
      expect(userFetch.calls()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a fetch setting that is not a function is a ConfigurationError naming it', () => {
    expect(() => createOpenAI().languageModel('gpt-4o', { settings: { apiKey: 'sk', fetch: 'undici' }, env: {} })).toThrowError('providers.openai.fetch must be a fetch function');
  });
});
