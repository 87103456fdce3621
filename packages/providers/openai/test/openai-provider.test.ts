import { ConfigurationError } from '@cairn/core';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createOpenAI, OpenAIChatLanguageModel, OpenAIResponsesLanguageModel, openai, openAIModels } from '../src/index.js';
import { collect, simplePrompt } from './helpers.js';

const noEnv = { settings: {}, env: {} };

describe('createOpenAI', () => {
  it('is a ProviderV1 with id openai, and openai is a ready instance', () => {
    expect(openai.id).toBe('openai');
    expect(openai.specificationVersion).toBe('v1');
    expect(openai.apiKeyEnv).toEqual(['OPENAI_API_KEY']);
  });

  it('fails without a key with a message that names the fix', () => {
    expect(() => openai.languageModel('gpt-5', noEnv)).toThrowError(ConfigurationError);
    expect(() => openai.languageModel('gpt-5', noEnv)).toThrowError('set OPENAI_API_KEY or pass providers.openai.apiKey');
    expect(openai.isConfigured(noEnv)).toBe(false);
    expect(openai.isConfigured({ settings: {}, env: { OPENAI_API_KEY: 'sk-env' } })).toBe(true);
  });

  it('needs no key behind a custom base URL and sends a placeholder', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-text-usage.sse')]);
    const model = openai.languageModel('llama3', { settings: {}, env: { OPENAI_BASE_URL: `${server.url}/v1` } });
    await collect((await model.doStream({ prompt: simplePrompt })).stream);
    await server.close();
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key-needed');
  });

  it('takes the key from the agent settings, then the factory settings, then OPENAI_API_KEY, and sends organization and headers', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-text-usage.sse')]);
    const baseURL = `${server.url}/v1`;
    const env = { OPENAI_API_KEY: 'sk-env', OPENAI_ORG_ID: 'org-env' };
    const send = async (provider: ReturnType<typeof createOpenAI>, settings: Record<string, unknown>) => {
      await collect((await provider.languageModel('gpt-4o', { settings: { baseURL, ...settings }, env }).doStream({ prompt: simplePrompt })).stream);
      return server.requests.at(-1)!.headers;
    };
    // The more specific setting wins: the agent's `providers.openai` over the shared factory's.
    expect((await send(createOpenAI({ apiKey: 'sk-factory' }), { apiKey: 'sk-context' })).authorization).toBe('Bearer sk-context');
    expect((await send(createOpenAI({ apiKey: 'sk-factory' }), {})).authorization).toBe('Bearer sk-factory');
    expect((await send(createOpenAI(), { apiKey: 'sk-context' })).authorization).toBe('Bearer sk-context');
    const headers = await send(createOpenAI({ headers: { 'x-team': 'cairn' } }), {});
    await server.close();
    expect(headers.authorization).toBe('Bearer sk-env');
    expect(headers['openai-organization']).toBe('org-env');
    expect(headers['x-team']).toBe('cairn');
  });

  it('selects the API: catalog hint, then env OPENAI_API, then the provider setting; unknown ids default to chat', () => {
    const keyed = (env: Record<string, string> = {}, settings: Record<string, unknown> = {}) => ({ settings, env: { OPENAI_API_KEY: 'sk', ...env } });
    expect(openai.languageModel('gpt-5.2', keyed())).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(openai.languageModel('gpt-5-2025-08-07', keyed())).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(openai.languageModel('gpt-4.1', keyed())).toBeInstanceOf(OpenAIChatLanguageModel);
    expect(openai.languageModel('my-fine-tune', keyed())).toBeInstanceOf(OpenAIChatLanguageModel);
    expect(openai.languageModel('my-fine-tune', keyed({ OPENAI_API: 'responses' }))).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(openai.languageModel('gpt-5.2', keyed({ OPENAI_API: 'chat' }))).toBeInstanceOf(OpenAIChatLanguageModel);
    expect(openai.languageModel('gpt-4o', keyed({}, { api: 'responses' }))).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(createOpenAI({ api: 'chat' }).languageModel('gpt-5.2', keyed({ OPENAI_API: 'responses' }))).toBeInstanceOf(OpenAIChatLanguageModel);
    expect(createOpenAI({ api: 'chat' }).languageModel('gpt-4o', keyed({}, { api: 'responses' }))).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(() => openai.languageModel('gpt-4o', keyed({ OPENAI_API: 'completions' }))).toThrowError('OPENAI_API must be "chat" or "responses"');
  });

  it('uses an injected client (no key needed) and still sends maxRetries 0 and no retry', async () => {
    const server = await startFixtureServer([{ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"busy"}}' }]);
    const client = new OpenAI({ apiKey: 'sk-injected', baseURL: `${server.url}/v1`, maxRetries: 5 });
    const model = createOpenAI({ client, api: 'chat' }).languageModel('gpt-4o', noEnv);
    await expect(model.doStream({ prompt: simplePrompt })).rejects.toMatchObject({ status: 503, isRetryable: true });
    await server.close();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-injected');
  });

  it('warns instead of sending temperature to a reasoning model, and reasoning effort to a model that does not reason', async () => {
    const server = await startFixtureServer([fixtureResponse('openai-chat/stream-text-usage.sse')]);
    const context = { settings: { apiKey: 'sk', baseURL: `${server.url}/v1` }, env: {} };
    const reasoning = await createOpenAI({ api: 'chat' }).languageModel('o3', context).doStream({ prompt: simplePrompt, temperature: 0.5, reasoningEffort: 'high' });
    const reasoningParts = await collect(reasoning.stream);
    const plain = await openai.languageModel('gpt-4o', context).doStream({ prompt: simplePrompt, reasoningEffort: 'high' });
    const plainParts = await collect(plain.stream);
    await server.close();
    expect(server.requests[0]?.body).toMatchObject({ reasoning_effort: 'high' });
    expect(server.requests[0]?.body).not.toHaveProperty('temperature');
    expect(reasoningParts[0]).toMatchObject({ type: 'stream-start', warnings: [{ type: 'unsupported-setting', setting: 'temperature' }] });
    expect(server.requests[1]?.body).not.toHaveProperty('reasoning_effort');
    expect(plainParts[0]).toMatchObject({ warnings: [{ setting: 'reasoningEffort' }] });
  });
});

describe('the model catalog', () => {
  it('lists current models with windows, prices, tiers, effort values and an API hint', () => {
    const models = openAIModels();
    const ids = models.map((model) => model.id);
    for (const id of ['gpt-5.2', 'gpt-5.1', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini']) {
      expect(ids).toContain(id);
    }
    for (const model of models) {
      expect(model.provider).toBe('openai');
      expect(model.contextWindow).toBeGreaterThan(model.maxOutputTokens);
      expect(model.pricing?.cachedInputPerMillion ?? Number.POSITIVE_INFINITY).toBeLessThan(model.pricing?.inputPerMillion ?? 0);
      expect(['fast', 'balanced', 'frontier']).toContain(model.tier);
      expect(['chat', 'responses']).toContain(model.providerHints?.api);
      if (model.capabilities.reasoning) expect(model.params?.find((param) => param.id === 'reasoningEffort')?.values?.length).toBeGreaterThan(2);
    }
    // Entries are copies: a caller editing one does not change the next call's.
    models[0]?.aliases?.push('changed');
    expect(openAIModels()[0]!.aliases).not.toContain('changed');
  });
});
