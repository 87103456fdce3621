import { ProviderError } from '@cairn/core';
import { unresolvableBaseURL } from '@cairn/provider-utils/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAI, ollama } from '../src/index.js';
import { rejection, simplePrompt } from './helpers.js';

// The same rule as the Anthropic and Gemini providers (`classifyNetworkError` of @cairn/provider-utils).
describe('a DNS failure', () => {
  it.each(['chat', 'responses'] as const)('on the %s API is an unreachable ProviderError naming the address, retried only when the resolver is down (EAI_AGAIN, not ENOTFOUND)', async (api) => {
    const baseURL = `${unresolvableBaseURL}/v1`;
    const model = createOpenAI({ api }).languageModel('gpt-4o', { settings: { apiKey: 'sk-test', baseURL }, env: {} });
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    expect(ProviderError.isInstance(error)).toBe(true);
    expect([error.provider, error.code, error.isRetryable, error.responseStarted, error.endpoint]).toEqual(['openai', 'provider_unreachable', error.message.includes('EAI_AGAIN'), false, baseURL]);
    expect(error.message).toMatch(/^Cannot reach OpenAI at http:\/\/cairn-no-such-host\.invalid\/v1 \((ENOTFOUND|EAI_AGAIN)\)\. Check that the server is running/);
  });

  it('on an OpenAI-compatible server tells how to point to it', async () => {
    const model = ollama.languageModel('qwen3', { settings: { baseURL: unresolvableBaseURL }, env: {} });
    const error = (await rejection(model.doStream({ prompt: simplePrompt }))) as ProviderError;
    expect([error.provider, error.code, error.isRetryable]).toEqual(['ollama', 'provider_unreachable', error.message.includes('EAI_AGAIN')]);
    expect(error.message).toContain('point OLLAMA_BASE_URL or providers.ollama.baseURL to it');
  });
});
