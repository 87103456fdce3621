import { describe, expect, it } from 'vitest';
import { Cairn } from '../src/index.js';

const providerOf = (id: string) => (id.includes('/') ? id.slice(0, id.indexOf('/')) : 'router');

describe('Cairn.models.list', () => {
  it('lists the catalog of every configured provider and only those', async () => {
    const anthropicOnly = await Cairn.models.list({ env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });
    const anthropicProviders = new Set(anthropicOnly.map((model) => providerOf(model.id)));
    expect(anthropicProviders.has('openai')).toBe(false);
    expect(anthropicProviders.has('anthropic')).toBe(true);
    const all = await Cairn.models.list({ env: { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test', GEMINI_API_KEY: 'gemini-test' } });
    const providers = new Set(all.map((model) => providerOf(model.id)));
    expect([...providers].sort()).toEqual(['anthropic', 'google', 'openai', 'router']);
    expect(all.every((model) => model.displayName.length > 0 && model.description)).toBe(true);
    // The description carries what the internal catalog knows: context window and prices.
    expect(all.find((model) => model.id === 'openai/gpt-4.1-mini')?.description).toMatch(/1048k-token context.*\$0\.4 input \/ \$1\.6 output per million tokens/);
  });

  it('reads keys from process.env by default and from provider settings', async () => {
    const saved = { ...process.env };
    try {
      for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_BASE_URL']) delete process.env[key];
      expect((await Cairn.models.list()).map((model) => model.id)).toEqual([]);
      const withSetting = await Cairn.models.list({ providers: { google: { apiKey: 'gemini-test' } } });
      expect(new Set(withSetting.map((model) => providerOf(model.id)))).toEqual(new Set(['router', 'google']));
      process.env.OPENAI_API_KEY = 'sk-test';
      expect((await Cairn.models.list()).some((model) => model.id === 'openai/gpt-5.2')).toBe(true);
    } finally {
      process.env = saved;
    }
  });

  it('rejects an apiKey and unknown options, saying what to pass instead', async () => {
    await expect(Cairn.models.list({ apiKey: 'sk-test' })).rejects.toThrow(/takes no apiKey.*providers: \{ <provider>: \{ apiKey \} \}/);
    await expect(Cairn.models.list({ provider: 'openai' } as never)).rejects.toThrow(/has no option "provider"\. Its options: providers, env/);
    // An apiKey left undefined (an unset variable) is no apiKey.
    await expect(Cairn.models.list({ apiKey: undefined, env: {} })).resolves.toEqual([]);
  });
});
