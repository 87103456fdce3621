import { describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/registry.js';
import type { ProviderV1 } from '../spec/provider/v1/index.js';
import { normalizeModelSelection, resolveModelSelection, selectionOf } from './model-selection.js';

const acme: ProviderV1 = {
  specificationVersion: 'v1',
  id: 'acme',
  languageModel: (modelId) => ({ specificationVersion: 'v1', provider: 'acme', modelId, doStream: async () => ({ stream: (async function* () {})() }) }),
  models: () => [
    {
      id: 'acme-mid-2',
      provider: 'acme',
      aliases: ['acme-mid'],
      contextWindow: 1000,
      maxOutputTokens: 100,
      capabilities: { tools: true, images: false, reasoning: true },
      tier: 'balanced',
      params: [{ id: 'thinking', type: 'boolean' }],
    },
  ],
};
const registry = createRegistry([{ name: 'acme', providers: [acme] }]);

describe('normalizeModelSelection', () => {
  it('takes an id string or { id, params } and makes values strings', () => {
    expect(normalizeModelSelection('acme-mid')).toEqual({ id: 'acme-mid' });
    expect(normalizeModelSelection({ id: 'acme-mid', params: [{ id: 'thinking', value: true }] } as never)).toEqual({ id: 'acme-mid', params: [{ id: 'thinking', value: 'true' }] });
  });

  it('refuses what it would otherwise have to ignore or guess', () => {
    expect(() => normalizeModelSelection(undefined)).toThrow(/^No model selected\. Pass model/);
    expect(() => normalizeModelSelection({ id: 'acme-mid', parameters: [] } as never)).toThrow('model has no field "parameters": a model selection is { id, params?: [{ id, value }] }.');
    expect(() => normalizeModelSelection({ id: '' })).toThrow(/model\.id must be a model id string/);
    expect(() => normalizeModelSelection({ id: 'acme-mid', params: { thinking: 'true' } } as never)).toThrow(/model\.params must be an array of \{ id, value \}/);
    expect(() => normalizeModelSelection({ id: 'acme-mid', params: [{ value: 'true' }] } as never)).toThrow(/Each of model\.params must be \{ id, value \} with a string id \(got \{"value":"true"\}\)/);
  });
});

describe('selectionOf', () => {
  it('names the concrete model a selection resolved to, with the params that reached it', () => {
    const requested = { id: 'acme-mid', params: [{ id: 'thinking', value: 'true' }] };
    const resolved = resolveModelSelection(registry, requested, { env: {} });
    expect(resolved.callParams).toEqual({ thinking: true });
    expect(selectionOf(resolved, requested)).toEqual({ id: 'acme/acme-mid-2', params: [{ id: 'thinking', value: 'true' }] });
  });

  it('leaves the router\'s optimize_for out: the pick already reflects it', () => {
    const requested = { id: 'auto-smart', params: [{ id: 'optimize_for', value: 'cost' }] };
    const resolved = resolveModelSelection(registry, requested, { env: {} });
    expect(selectionOf(resolved, requested)).toEqual({ id: 'acme/acme-mid-2' });
    expect(selectionOf(resolved, { id: 'auto-smart', params: [{ id: 'optimize_for', value: 'cost' }, { id: 'thinking', value: 'false' }] })).toEqual({
      id: 'acme/acme-mid-2',
      params: [{ id: 'thinking', value: 'false' }],
    });
  });
});
