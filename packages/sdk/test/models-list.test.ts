import { describe, expect, it } from 'vitest';
import { Cairn } from '../src/index.js';

describe('Cairn.models.list', () => {
  it('lists the catalog of every configured provider and only those', async () => {
    const saved = { ...process.env };
    try {
      for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_BASE_URL']) delete process.env[key];
      process.env.ANTHROPIC_API_KEY = 'sk-ant-test';
      const anthropicOnly = await Cairn.models.list();
      expect(new Set(anthropicOnly.map((model) => model.provider)).has('openai')).toBe(false);
      expect(anthropicOnly.some((model) => model.provider === 'anthropic')).toBe(true);
      process.env.OPENAI_API_KEY = 'sk-test';
      process.env.GEMINI_API_KEY = 'gemini-test';
      const all = await Cairn.models.list();
      const providers = new Set(all.map((model) => model.provider));
      expect(providers.has('openai') && providers.has('anthropic') && providers.has('google')).toBe(true);
      expect(all.every((model) => model.contextWindow > 0)).toBe(true);
      expect(all.filter((model) => model.pricing).length).toBeGreaterThan(10);
    } finally {
      process.env = saved;
    }
  });
});
