// Which HTTP client the SDK client we build uses: Node's own (node:http) by default in Node, a
// `fetch` setting instead when given (docs/providers.md, "Transport"). undici's fetch sends
// `sec-fetch-mode: cors` with every request and node:http sends no such header, so the server
// tells the two apart.
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { observeTransports, type TransportProbe, transportRule } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';
import { collect, userPrompt } from './helpers.js';

describe('the Google transport', () => {
  it('sends through node:http by default, and through the fetch setting (agent over factory) when given', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const probe: TransportProbe = async (factoryFetch, agentFetch) => {
        const provider = createGoogle(factoryFetch ? { fetch: factoryFetch } : {});
        const model = provider.languageModel('gemini-2.0-flash', { settings: { apiKey: 'test-key', baseURL: server.url, ...(agentFetch ? { fetch: agentFetch } : {}) }, env: {} });
        const parts = await collect((await model.doStream({ prompt: userPrompt })).stream);
        expect(parts.some((part) => part.type === 'text-delta')).toBe(true);
        return server.requests.at(-1)!.headers['sec-fetch-mode'];
      };
      expect(await observeTransports(probe)).toEqual(transportRule);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
