// Which HTTP client the SDK client we build uses: Node's own (node:http) by default in Node, a
// `fetch` setting instead when given (docs/providers.md, "Transport"). undici's fetch sends
// `sec-fetch-mode: cors` with every request and node:http sends no such header, so the server
// tells the two apart.
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';
import { collect, userPrompt } from './helpers.js';

/** A fetch that counts its calls and sends them through the platform's fetch (undici). */
function countingFetch(): { fetch: typeof globalThis.fetch; calls: () => number } {
  let calls = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    calls += 1;
    return globalThis.fetch(input, init);
  };
  return { fetch, calls: () => calls };
}

describe('the Google transport', () => {
  it('sends through node:http by default, and through the fetch setting (agent over factory) when given', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const factoryFetch = countingFetch();
      const agentFetch = countingFetch();
      const send = async (provider: ReturnType<typeof createGoogle>, settings: Record<string, unknown> = {}) => {
        const model = provider.languageModel('gemini-2.0-flash', { settings: { apiKey: 'test-key', baseURL: server.url, ...settings }, env: {} });
        const parts = await collect((await model.doStream({ prompt: userPrompt })).stream);
        expect(parts.some((part) => part.type === 'text-delta')).toBe(true);
        return server.requests.at(-1)!.headers['sec-fetch-mode'];
      };
      expect(await send(createGoogle())).toBeUndefined();
      expect(await send(createGoogle({ fetch: factoryFetch.fetch }))).toBe('cors');
      expect(factoryFetch.calls()).toBe(1);
      expect(await send(createGoogle({ fetch: factoryFetch.fetch }), { fetch: agentFetch.fetch })).toBe('cors');
      expect([factoryFetch.calls(), agentFetch.calls()]).toEqual([1, 1]);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
