import { ConfigurationError } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../src/index.js';
import { collect, userPrompt } from './helpers.js';

// One rule for every provider (`resolveSetting` of @cairn/provider-utils): agent, then factory, then env.
describe('settings precedence', () => {
  it('the agent setting wins over the factory setting, which wins over env; headers merge', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    try {
      const provider = createAnthropic({ apiKey: 'factory-key', headers: { 'x-team': 'factory', 'x-app': 'cairn' } });
      const send = async (settings: Record<string, unknown>) => {
        const model = provider.languageModel('claude-haiku-4-5', { settings: { baseURL: server.url, ...settings }, env: { ANTHROPIC_API_KEY: 'env-key' } });
        await collect((await model.doStream({ prompt: userPrompt })).stream);
        return server.requests.at(-1)!.headers;
      };
      const fromAgent = await send({ apiKey: 'agent-key', headers: { 'x-team': 'agent' } });
      expect([fromAgent.authorization, fromAgent['x-team'], fromAgent['x-app']]).toEqual(['Bearer agent-key', 'agent', 'cairn']);
      expect((await send({})).authorization).toBe('Bearer factory-key');
      const envOnly = createAnthropic().languageModel('claude-haiku-4-5', { settings: { baseURL: server.url }, env: { ANTHROPIC_API_KEY: 'env-key' } });
      await collect((await envOnly.doStream({ prompt: userPrompt })).stream);
      expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer env-key');
    } finally {
      await server.close();
    }
  });

  it('a setting of the wrong type is a ConfigurationError naming it', () => {
    const error = (() => {
      try {
        // Settings can come from JSON config, where any type can turn up.
        createAnthropic().languageModel('claude-haiku-4-5', { settings: { apiKey: 42 as unknown as string }, env: {} });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('providers.anthropic.apiKey must be a string, got number.');
  });
});
