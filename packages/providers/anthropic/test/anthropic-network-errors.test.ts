import { ProviderError } from '@cairn/core';
import { startFixtureServer } from '@cairn/core/testing';
import { unresolvableBaseURL } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../src/index.js';
import { userPrompt } from './helpers.js';

// The same rule as the OpenAI and Gemini providers (`classifyNetworkError` of @cairn/provider-utils).
describe('a DNS failure', () => {
  it('is an unreachable ProviderError naming the address, retried only when the resolver is down (EAI_AGAIN, not ENOTFOUND)', async () => {
    const model = createAnthropic({ apiKey: 'test-key', baseURL: unresolvableBaseURL }).languageModel('claude-haiku-4-5');
    const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([error.provider, error.code, error.isRetryable, error.responseStarted, error.endpoint]).toEqual(['anthropic', 'provider_unreachable', error.message.includes('EAI_AGAIN'), false, unresolvableBaseURL]);
    expect(error.message).toMatch(/^Cannot reach Anthropic at http:\/\/cairn-no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)\. Check the network connection, or fix ANTHROPIC_BASE_URL/);
  });
});

describe('an injected client with retries of its own', () => {
  it('still makes one request per call: the runtime owns retries', async () => {
    const server = await startFixtureServer([{ status: 503, headers: { 'content-type': 'application/json' }, body: '{"type":"error","error":{"type":"api_error","message":"Down"}}' }]);
    try {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: 'injected-key', baseURL: server.url, maxRetries: 5 });
      const model = createAnthropic({ client }).languageModel('claude-haiku-4-5', { settings: {}, env: {} });
      const error = (await model.doStream({ prompt: userPrompt }).catch((caught: unknown) => caught)) as ProviderError;
      expect([error.status, error.isRetryable, server.requests.length]).toEqual([503, true, 1]);
    } finally {
      await server.close();
    }
  });
});
