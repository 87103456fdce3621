import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';
import { collect, userPrompt } from './helpers.js';

// One rule for every provider (`resolveSetting` of @cairn/provider-utils): agent, then factory, then env.
describe('settings precedence', () => {
  it('the agent setting wins over the factory setting, which wins over env; headers merge', async () => {
    const server = await startFixtureServer([fixtureResponse('google/stream-text.sse')]);
    try {
      const provider = createGoogle({ apiKey: 'factory-key', headers: { 'x-team': 'factory', 'x-app': 'cairn' } });
      const send = async (settings: Record<string, unknown>) => {
        const model = provider.languageModel('gemini-2.0-flash', { settings: { baseURL: server.url, ...settings }, env: { GEMINI_API_KEY: 'env-key' } });
        await collect((await model.doStream({ prompt: userPrompt })).stream);
        return server.requests.at(-1)!.headers;
      };
      const fromAgent = await send({ apiKey: 'agent-key', headers: { 'x-team': 'agent' } });
      expect([fromAgent['x-goog-api-key'], fromAgent['x-team'], fromAgent['x-app']]).toEqual(['agent-key', 'agent', 'cairn']);
      expect((await send({}))['x-goog-api-key']).toBe('factory-key');
      const envOnly = createGoogle().languageModel('gemini-2.0-flash', { settings: { baseURL: server.url }, env: { GEMINI_API_KEY: 'env-key' } });
      await collect((await envOnly.doStream({ prompt: userPrompt })).stream);
      expect(server.requests.at(-1)!.headers['x-goog-api-key']).toBe('env-key');
    } finally {
      await server.close();
    }
  });
});
