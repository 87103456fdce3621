import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ProviderV1 } from '../spec/provider/v1/index.js';
import { createRegistry } from './registry.js';

const provider: ProviderV1 = {
  specificationVersion: 'v1',
  id: 'acme',
  apiKeyEnv: ['ACME_API_KEY'],
  languageModel: (modelId) => ({ specificationVersion: 'v1', provider: 'acme', modelId, doStream: async () => ({ stream: (async function* () {})() }) }),
  models: () => [{ id: 'acme-large-2', provider: 'acme', contextWindow: 1000, maxOutputTokens: 100, capabilities: { tools: true, images: false, reasoning: false }, aliases: ['acme-large'] }],
  isConfigured: ({ env }) => Boolean(env.ACME_API_KEY),
};

describe('createRegistry', () => {
  it('resolves provider/model ids, aliases included', () => {
    const registry = createRegistry([{ name: 'acme', providers: [provider] }]);
    const resolved = registry.resolveModel('acme/acme-large');
    expect(resolved.id).toBe('acme/acme-large-2');
    expect(resolved.model.modelId).toBe('acme-large-2');
    expect(registry.resolveModel('acme/anything').catalog).toBeUndefined();
  });

  it('throws ConfigurationError naming known providers for unknown ones', () => {
    const registry = createRegistry([{ name: 'acme', providers: [provider] }]);
    expect(() => registry.resolveModel('openai/gpt-5')).toThrow(ConfigurationError);
    expect(() => registry.resolveModel('openai/gpt-5')).toThrow(/Known providers: acme/);
    expect(() => registry.resolveModel('gpt-5')).toThrow(/provider\/model/);
  });

  it('lists models only of configured providers', () => {
    const registry = createRegistry([{ name: 'acme', providers: [provider] }]);
    expect(registry.listModels({ env: {} })).toEqual([]);
    expect(registry.listModels({ env: { ACME_API_KEY: 'k' } }).map((entry) => entry.id)).toEqual(['acme-large-2']);
  });

  it('validates modes at registration with a message naming the field', () => {
    const registry = createRegistry();
    expect(() => registry.use({ name: 'bad', modes: [{ id: 'Review', description: 'x', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: [] }] })).toThrow(/"id"/);
    expect(() => registry.use({ name: 'bad', modes: [{ id: 'review', description: 'x', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'some' as never }, sandboxProfile: 'read-only', transitionsTo: [] }] })).toThrow(/toolPolicy.mcp/);
    registry.use({ name: 'good', modes: [{ id: 'review', description: 'Review code', promptBlocks: ['Review.'], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: ['agent'] }] });
    expect(registry.mode('review')?.description).toBe('Review code');
  });

  it('refuses two plugins registering the same tool name', () => {
    const tool = { id: 'x', name: 'x', description: 'x', inputSchema: { jsonSchema: {} }, readOnly: true, category: 'custom' as const, execute: () => 'x' };
    const registry = createRegistry([{ name: 'a', tools: [tool] }]);
    expect(() => registry.use({ name: 'b', tools: [{ ...tool }] })).toThrow(/already registered/);
  });
});
