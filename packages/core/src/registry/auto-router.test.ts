import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelCatalogEntry, ProviderV1 } from '../spec/provider/v1/index.js';
import { blendedPrice, chooseAutoModel, optimizeForOf } from './auto-router.js';
import { createRegistry } from './registry.js';

function entry(provider: string, id: string, tier: ModelCatalogEntry['tier'], input: number, output: number, extra: Partial<ModelCatalogEntry> = {}): ModelCatalogEntry {
  return {
    id,
    provider,
    contextWindow: 100_000,
    maxOutputTokens: 8_000,
    capabilities: { tools: true, images: false, reasoning: false },
    params: [{ id: 'reasoning_effort', type: 'enum', values: ['low', 'high'] }],
    pricing: { inputPerMillion: input, outputPerMillion: output },
    ...(tier ? { tier } : {}),
    ...extra,
  };
}

/** A provider with a fake catalog, configured when its key variable is set. */
function fakeProvider(id: string, models: ModelCatalogEntry[]): ProviderV1 & { built: string[] } {
  const built: string[] = [];
  const key = `${id.toUpperCase()}_API_KEY`;
  return {
    specificationVersion: 'v1',
    id,
    apiKeyEnv: [key],
    built,
    languageModel(modelId, context) {
      if (!context.env[key] && !context.settings.apiKey) throw new ConfigurationError(`${key} missing`);
      built.push(modelId);
      return { specificationVersion: 'v1', provider: id, modelId, doStream: async () => ({ stream: (async function* () {})() }) };
    },
    models: () => models,
    isConfigured: ({ env, settings }) => Boolean(env[key] || settings.apiKey),
  };
}

const alpha = fakeProvider('alpha', [
  entry('alpha', 'alpha-nano', 'fast', 0.1, 0.4),
  entry('alpha', 'alpha-mid', 'balanced', 1, 8),
  entry('alpha', 'alpha-max', 'frontier', 10, 40),
  entry('alpha', 'alpha-chat-only', 'fast', 0.01, 0.01, { capabilities: { tools: false, images: false, reasoning: false } }),
]);
const beta = fakeProvider('beta', [
  entry('beta', 'beta-small', 'fast', 0.2, 0.2),
  entry('beta', 'beta-mid', 'balanced', 0.8, 4),
  entry('beta', 'beta-pro', 'frontier', 2, 12),
  entry('beta', 'beta-old-pro', 'frontier', 0.5, 1, { providerHints: { endOfLife: '2020-01-01' } }),
]);

function registry() {
  return createRegistry([{ name: 'fake-providers', providers: [alpha, beta] }]);
}

describe('auto model router', () => {
  it('picks the cheapest tool-capable model of the tier optimize_for asks for, across configured providers', () => {
    const env = { ALPHA_API_KEY: 'a', BETA_API_KEY: 'b' };
    const pick = (value?: string) => registry().resolveModel('auto', { env, ...(value ? { params: [{ id: 'optimize_for', value }] } : {}) }).id;
    // fast: alpha-nano (0.175) is cheaper than beta-small (0.2); the tool-less alpha-chat-only is never picked.
    expect(pick('cost')).toBe('alpha/alpha-nano');
    expect(pick('balanced')).toBe('beta/beta-mid');
    // beta-old-pro is cheaper but past its end of life.
    expect(pick('intelligence')).toBe('beta/beta-pro');
    expect(pick()).toBe('beta/beta-mid');
  });

  it('only looks at configured providers, and builds the chosen model with that provider', () => {
    const resolved = registry().resolveModel('auto', { env: { ALPHA_API_KEY: 'a' } });
    expect(resolved.id).toBe('alpha/alpha-mid');
    expect(resolved.provider.id).toBe('alpha');
    expect(resolved.model.modelId).toBe('alpha-mid');
    expect(resolved.auto).toEqual({ optimizeFor: 'balanced', reason: 'cheapest balanced model with tools for optimize_for=balanced' });
    // The catalog is the chosen entry's (prices for cost), with optimize_for declared so the selection validates.
    expect(resolved.catalog?.pricing).toEqual({ inputPerMillion: 1, outputPerMillion: 8 });
    expect(resolved.catalog?.params?.map((param) => param.id)).toEqual(['reasoning_effort', 'optimize_for']);
    // Settings of providers.<id> configure a provider too, and reach the model.
    expect(registry().resolveModel('auto', { env: {}, providers: { beta: { apiKey: 'k' } }, params: [{ id: 'optimize_for', value: 'cost' }] }).id).toBe('beta/beta-small');
  });

  it('is the same router as auto-smart and as auto; optimize_for stays with the router, the chosen model gets its own params', () => {
    const env = { ALPHA_API_KEY: 'a', BETA_API_KEY: 'b' };
    const params = [{ id: 'optimize_for', value: 'cost' }, { id: 'reasoning_effort', value: 'high' }];
    const smart = registry().resolveModel('auto-smart', { env, params });
    expect(smart.id).toBe('alpha/alpha-nano');
    expect(smart.callParams).toEqual({ reasoning_effort: 'high' });
    expect(registry().resolveModel('auto', { env, params }).id).toBe('alpha/alpha-nano');
    expect(registry().resolveModel('auto-smart', { env, params: [{ id: 'optimize_for', value: 'intelligence' }] }).callParams).toBeUndefined();
    // Without optimize_for both pick as for balanced.
    expect(registry().resolveModel('auto-smart', { env }).auto?.optimizeFor).toBe('balanced');
    expect(() => registry().resolveModel('auto-smart', { env, params: [{ id: 'reasoning_effort', value: 'max' }] })).toThrow(/must be one of low, high \(got max\)/);
    // A key belongs to one provider; the router may pick another.
    expect(() => registry().resolveModel('auto-smart', { env, apiKey: 'sk-1' })).toThrow(/apiKey cannot be used with the router \(auto-smart, auto\).*providers\.<id>\.apiKey/);
  });

  it('falls back to the nearest tier when the wanted one is empty', () => {
    const onlyFrontier = fakeProvider('gamma', [entry('gamma', 'gamma-big', 'frontier', 3, 15), entry('gamma', 'gamma-untiered', undefined, 0.01, 0.01)]);
    const choice = chooseAutoModel((onlyFrontier.models?.() ?? []).map((model) => ({ provider: onlyFrontier, entry: model })), 'cost');
    expect(choice?.entry.id).toBe('gamma-big');
    expect(choice?.reason).toContain('no fast model is available');
  });

  it('throws a ConfigurationError naming the keys when no provider is configured', () => {
    expect(() => registry().resolveModel('auto', { env: {} })).toThrow(ConfigurationError);
    expect(() => registry().resolveModel('auto', { env: {} })).toThrow(/none is configured\. Set one of ALPHA_API_KEY, BETA_API_KEY/);
  });

  it('throws when the configured catalogs have no tool-capable tiered model', () => {
    const toolless = fakeProvider('delta', [entry('delta', 'delta-chat', 'fast', 1, 1, { capabilities: { tools: false, images: false, reasoning: false } })]);
    const only = createRegistry([{ name: 'delta', providers: [toolless] }]);
    expect(() => only.resolveModel('auto', { env: { DELTA_API_KEY: 'd' } })).toThrow(/no tool-capable model with a tier in the catalogs of the configured providers \(delta\)/);
  });

  it('rejects an unknown optimize_for value', () => {
    expect(() => optimizeForOf([{ id: 'optimize_for', value: 'speed' }])).toThrow(/must be one of cost, balanced, intelligence \(got speed\)/);
  });

  it('weighs input three times output and sorts unpriced entries last', () => {
    expect(blendedPrice(entry('x', 'y', 'fast', 1, 5))).toBe(2);
    const { pricing: _pricing, ...unpriced } = entry('x', 'z', 'fast', 0, 0);
    expect(blendedPrice(unpriced)).toBe(Number.POSITIVE_INFINITY);
  });
});
