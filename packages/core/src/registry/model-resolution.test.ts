import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelCatalogEntry, ProviderV1 } from '../spec/provider/v1/index.js';
import { closeMatches } from './close-matches.js';
import { modelListItems } from './model-list.js';
import { createRegistry } from './registry.js';

function entry(id: string, extra: Partial<ModelCatalogEntry> = {}): ModelCatalogEntry {
  return { id, provider: 'x', contextWindow: 100_000, maxOutputTokens: 8_000, capabilities: { tools: true, images: false, reasoning: false }, ...extra };
}

/** A provider with a catalog, configured when its key variable is set; records the ids it builds. */
function provider(id: string, models: ModelCatalogEntry[]): ProviderV1 & { built: string[] } {
  const key = `${id.toUpperCase()}_API_KEY`;
  const built: string[] = [];
  return {
    specificationVersion: 'v1',
    id,
    apiKeyEnv: [key],
    built,
    languageModel(modelId) {
      built.push(modelId);
      return { specificationVersion: 'v1', provider: id, modelId, doStream: async () => ({ stream: (async function* () {})() }) };
    },
    models: () => models.map((model) => ({ ...model, provider: id })),
    isConfigured: ({ env, settings }) => Boolean(env[key] || settings.apiKey),
  };
}

const acme = provider('acme', [
  entry('acme-large-2', { aliases: ['acme-large'], displayName: 'Acme Large' }),
  entry('shared-model'),
  entry('acme-tuned', {
    params: [
      { id: 'fast', displayName: 'Fast', type: 'boolean', default: false },
      { id: 'budget', type: 'number', values: [1024, 4096] },
      { id: 'temperature', type: 'number', description: 'any number from 0 to 2' },
    ],
  }),
]);
const globex = provider('globex', [entry('shared-model'), entry('globex-mini', { aliases: ['acme-large'] })]);

function registry() {
  return createRegistry([{ name: 'providers', providers: [acme, globex] }]);
}

describe('model ids without the provider', () => {
  it('resolve catalog ids and aliases to their provider, and provider/model keeps working', () => {
    const models = registry();
    expect(models.resolveModel('acme-large-2').id).toBe('acme/acme-large-2');
    expect(models.resolveModel('globex-mini').id).toBe('globex/globex-mini');
    expect(models.resolveModel('acme/acme-large').id).toBe('acme/acme-large-2');
    expect(models.resolveModel('acme/acme-large').model.modelId).toBe('acme-large-2');
    // Any id goes to a named provider (compatible servers take models no catalog lists).
    expect(models.resolveModel('acme/anything').catalog).toBeUndefined();
    expect(models.catalogEntry('acme-large-2')?.id).toBe('acme-large-2');
  });

  it('send an id two providers have to the configured one, else list the qualified choices', () => {
    const models = registry();
    expect(models.resolveModel('shared-model', { env: { GLOBEX_API_KEY: 'g' } }).id).toBe('globex/shared-model');
    expect(models.resolveModel('shared-model', { env: {}, providers: { acme: { apiKey: 'a' } } }).id).toBe('acme/shared-model');
    const neither = () => models.resolveModel('shared-model', { env: {} });
    expect(neither).toThrow(ConfigurationError);
    expect(neither).toThrow('Model "shared-model" is in the catalogs of several providers and none of them is configured. Choose one: "acme/shared-model", "globex/shared-model".');
    expect(() => models.resolveModel('shared-model', { env: { ACME_API_KEY: 'a', GLOBEX_API_KEY: 'g' } })).toThrow(/several of them are configured\. Choose one: "acme\/shared-model", "globex\/shared-model"/);
    // An alias of one provider that is another's alias too is just as ambiguous.
    expect(() => models.resolveModel('acme-large', { env: { ACME_API_KEY: 'a', GLOBEX_API_KEY: 'g' } })).toThrow(/"acme\/acme-large-2", "globex\/globex-mini"/);
    expect(models.catalogEntry('shared-model')).toBeUndefined();
  });

  it('name close matches and how to list models for an unknown id', () => {
    const models = registry();
    const unknown = () => models.resolveModel('acme-larg-2');
    expect(unknown).toThrow(ConfigurationError);
    expect(unknown).toThrow(/^Unknown model "acme-larg-2": no registered provider's catalog has it\. Did you mean "acme\/acme-large-2", "globex\/globex-mini"\?/);
    expect(unknown).toThrow(/Cairn\.models\.list\(\) \(or `cairn models`\).*"provider\/model" \(for example "ollama\/qwen3"; known providers: acme, globex\)/);
    expect(() => models.resolveModel('zzz')).toThrow(/^Unknown model "zzz": no registered provider's catalog has it\. List/);
    expect(() => models.resolveModel('nowhere/acme-large-2')).toThrow(/^Unknown model provider "nowhere" in "nowhere\/acme-large-2"\. Known providers: acme, globex\. Did you mean "acme\/acme-large-2", "globex\/globex-mini"\?/);
    expect(() => models.resolveModel('acme/')).toThrow(/names no model after the provider/);
    expect(() => models.resolveModel('auto-smrt')).toThrow(/Did you mean "auto-smart"/);
  });
});

describe('selection params', () => {
  const env = { ACME_API_KEY: 'a' };

  it('are parsed by the catalog type: booleans and numbers from their strings, enums kept', () => {
    const resolved = registry().resolveModel('acme-tuned', { env, params: [{ id: 'fast', value: 'true' }, { id: 'budget', value: '4096' }, { id: 'temperature', value: '0.5' }] });
    expect(resolved.callParams).toEqual({ fast: true, budget: 4096, temperature: 0.5 });
    expect(registry().resolveModel('acme-tuned', { env }).callParams).toBeUndefined();
  });

  it('are rejected with the allowed values when wrong, twice given, or unknown', () => {
    const resolve = (params: Array<{ id: string; value: string }>) => () => registry().resolveModel('acme-tuned', { env, params });
    expect(resolve([{ id: 'fast', value: 'yes' }])).toThrow('Parameter "fast" of acme/acme-tuned must be one of false, true (got yes).');
    expect(resolve([{ id: 'budget', value: '2048' }])).toThrow('Parameter "budget" of acme/acme-tuned must be one of 1024, 4096 (got 2048).');
    expect(resolve([{ id: 'temperature', value: '' }])).toThrow(/"temperature" of acme\/acme-tuned must be a number, as a string \(got \)/);
    expect(resolve([{ id: 'fast', value: 'true' }, { id: 'fast', value: 'false' }])).toThrow(/"fast" is given twice/);
    expect(resolve([{ id: 'speed', value: '1' }])).toThrow('Model acme/acme-tuned has no parameter "speed". Its parameters: fast, budget, temperature (see Cairn.models.list()).');
    // A model outside the catalog takes any parameter, passed on as given.
    expect(registry().resolveModel('acme/local-model', { env, params: [{ id: 'speed', value: '1' }] }).callParams).toEqual({ speed: '1' });
  });

  it('take a number or boolean from untyped callers as its string, and nothing else', () => {
    const untyped = (value: unknown) => () => registry().resolveModel('acme-tuned', { env, params: [{ id: 'fast', value }] as never });
    expect(untyped(true)().callParams).toEqual({ fast: true });
    expect(registry().resolveModel('acme-tuned', { env, params: [{ id: 'budget', value: 1024 }] as never }).callParams).toEqual({ budget: 1024 });
    expect(untyped({ on: true })).toThrow(/Model parameter "fast" has the value \{"on":true\}\. Parameter values are strings/);
    expect(untyped(null)).toThrow(/has the value null/);
  });
});

describe('the listed catalog', () => {
  it('lists aliases only where they resolve to the model they are listed under', () => {
    const items = modelListItems([acme, globex], { env: { ACME_API_KEY: 'a', GLOBEX_API_KEY: 'g' } });
    const large = items.find((item) => item.id === 'acme/acme-large-2');
    // "acme-large" is an alias of both providers, so only its qualified form is listed.
    expect(large?.aliases).toEqual(['acme-large-2', 'acme/acme-large']);
    expect(items.find((item) => item.id === 'acme/shared-model')?.aliases).toBeUndefined();
    expect(modelListItems([acme, globex], { env: { ACME_API_KEY: 'a' } }).find((item) => item.id === 'acme/shared-model')?.aliases).toEqual(['shared-model']);
  });

  it('lists a boolean as "false"/"true", a number by its values, and describes a number without values', () => {
    const tuned = modelListItems([acme], { env: { ACME_API_KEY: 'a' } }).find((item) => item.id === 'acme/acme-tuned');
    expect(tuned?.parameters).toEqual([
      { id: 'fast', displayName: 'Fast', values: [{ value: 'false' }, { value: 'true' }] },
      { id: 'budget', values: [{ value: '1024' }, { value: '4096' }] },
    ]);
    expect(tuned?.description).toContain('Also takes "temperature" (a number: any number from 0 to 2).');
    // Two listed parameters: no presets (their combinations would be guesses).
    expect(tuned?.variants).toBeUndefined();
  });

  it('lists no router when no configured provider has a model it can route to', () => {
    expect(modelListItems([acme], { env: { ACME_API_KEY: 'a' } }).some((item) => item.id === 'auto-smart')).toBe(false);
    const tiered = provider('tiered', [entry('tiered-mid', { tier: 'balanced' })]);
    const items = modelListItems([tiered], { env: { TIERED_API_KEY: 't' } });
    expect(items[0]?.id).toBe('auto-smart');
    expect(items[0]?.variants?.map((variant) => variant.description)).toEqual([
      'Routes to tiered/tiered-mid now: the cheapest balanced model with tools for optimize_for=balanced.',
      'Routes to tiered/tiered-mid now: the cheapest balanced model with tools for optimize_for=cost (no fast model is available).',
      'Routes to tiered/tiered-mid now: the cheapest balanced model with tools for optimize_for=intelligence (no frontier model is available).',
    ]);
  });
});

describe('closeMatches', () => {
  it('finds small typos and names that contain the query, best first', () => {
    expect(closeMatches('gpt5.2', ['gpt-5.2', 'gpt-5.1', 'o3'])).toEqual(['gpt-5.2', 'gpt-5.1']);
    expect(closeMatches('sonnet', ['claude-sonnet-4-5', 'claude-opus-4-5'])).toEqual(['claude-sonnet-4-5']);
    expect(closeMatches('x', ['gpt-5.2', 'o3'])).toEqual([]);
  });
});
