import { ProviderError } from '@cairn/core';
import { startFixtureServer } from '@cairn/core/testing';
import { unresolvableBaseURL } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';
import { userPrompt } from './helpers.js';

// The same rule as the OpenAI and Anthropic providers (`classifyNetworkError` of @cairn/provider-utils).
describe('a DNS failure', () => {
  it('is an unreachable ProviderError naming the address, retried only when the resolver is down (EAI_AGAIN, not ENOTFOUND)', async () => {
    const model = createGoogle({ apiKey: 'test-key', baseURL: unresolvableBaseURL }).languageModel('gemini-2.5-flash');
    const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([error.provider, error.code, error.isRetryable, error.responseStarted, error.endpoint]).toEqual(['google', 'provider_unreachable', error.message.includes('EAI_AGAIN'), false, unresolvableBaseURL]);
    expect(error.message).toMatch(/^Cannot reach Gemini at http:\/\/cairn-no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)\. Check the network connection, or fix GEMINI_BASE_URL/);
  });

  it('embeddings follow the same rule', async () => {
    const model = createGoogle({ apiKey: 'test-key', baseURL: unresolvableBaseURL }).embeddingModel('gemini-embedding-001');
    const error = (await model.doEmbed({ values: ['a'] }).catch((caught: unknown) => caught)) as ProviderError;
    expect([error.code, error.isRetryable]).toEqual(['provider_unreachable', error.message.includes('EAI_AGAIN')]);
  });
});

describe('an injected client with retries of its own', () => {
  it('still makes one request per call: the runtime owns retries', async () => {
    const server = await startFixtureServer([{ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":503,"message":"Overloaded.","status":"UNAVAILABLE"}}' }]);
    try {
      const { GoogleGenAI } = await import('@google/genai');
      const client = new GoogleGenAI({ apiKey: 'injected', vertexai: false, httpOptions: { baseUrl: server.url, retryOptions: { attempts: 5, initialDelay: 0.01, maxDelay: 0.02 } } });
      const model = createGoogle({ client }).languageModel('gemini-2.5-flash', { settings: {}, env: {} });
      const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
      expect([error.status, error.isRetryable, server.requests.length]).toEqual([503, true, 1]);
    } finally {
      await server.close();
    }
  });
});
