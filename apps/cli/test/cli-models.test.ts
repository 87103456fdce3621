import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { defaultModel, isCurrentModel } from '../src/default-model.js';
import { io, useTempCairnHome } from './cli-io.js';

useTempCairnHome();

describe('cairn models', () => {
  it('lists the router and the configured providers\' models with parameters, aliases and prices', async () => {
    const cli = io(['models'], { OPENAI_API_KEY: 'sk-test' });
    expect(await cli.run()).toBe(0);
    const lines = cli.out().trim().split('\n');
    expect(lines[0]).toMatch(/^auto-smart\s+Router\s+optimize_for=balanced\|cost\|intelligence {2}\(also: auto\)$/);
    expect(lines.find((line) => line.startsWith('openai/gpt-5.2 '))).toMatch(
      /^openai\/gpt-5\.2\s+GPT-5\.2\s+400k\s+frontier\s+\$1\.75\/\$14 per M\s+reasoningEffort=medium\|none\|low\|high\|xhigh {2}\(also: gpt-5\.2, gpt-5\.2-2025-12-11, openai\/gpt-5\.2-2025-12-11\)$/,
    );
    // Only the configured provider's models.
    expect(lines.some((line) => line.startsWith('anthropic/'))).toBe(false);
    expect(lines.at(-1)).toBe('Pass an id or alias as --model. Parameter values and presets: cairn models --json.');
  });

  it('prints Cairn.models.list() as JSON with --json', async () => {
    const cli = io(['models', '--json'], { ANTHROPIC_API_KEY: 'sk-ant-test' });
    expect(await cli.run()).toBe(0);
    const models = JSON.parse(cli.out()) as Array<{ id: string; aliases?: string[]; parameters?: Array<{ id: string; values: Array<{ value: string }> }> }>;
    const sonnet = models.find((model) => model.id === 'anthropic/claude-sonnet-4-5-20250929');
    expect(sonnet?.aliases).toContain('claude-sonnet-4-5');
    expect(sonnet?.parameters).toEqual([{ id: 'reasoning_effort', displayName: 'Reasoning effort', values: ['off', 'minimal', 'low', 'medium', 'high'].map((value) => ({ value })) }]);
  });

  it('says how to configure a provider when none is', async () => {
    const cli = io(['models'], {});
    expect(await cli.run()).toBe(0);
    expect(cli.out()).toMatch(/^No provider is configured\. Set OPENAI_API_KEY/);
  });

  it('takes a listed id without its provider as --model', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const server = await startChatCompletionsServer([{ text: 'hello' }]);
    // The run reads provider variables from the process environment, as `cairn "prompt"` does.
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
    try {
      const cli = io(['--cwd', cwd, '--model', 'gpt-4.1-mini', 'hi'], process.env);
      const code = await cli.run();
      expect(cli.err()).not.toMatch(/^cairn: /m);
      expect(code).toBe(0);
      expect(cli.out()).toBe('hello\n');
      expect(server.requests[0]?.model).toBe('gpt-4.1-mini');
    } finally {
      process.env = saved;
      await server.close();
    }
  });

  it('lists what the configured servers serve beside the catalogs, and says when one does not answer', async () => {
    const seen: string[] = [];
    const server = await modelServer((path, authorization) => {
      seen.push(`${path} ${authorization ?? '-'}`);
      if (path === '/v1/models') return { object: 'list', data: [{ id: 'qwen2.5-coder-7b', object: 'model' }, { id: 'llama-3.1-8b', object: 'model' }] };
      if (path === '/api/tags') return { models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }] };
      return undefined;
    });
    const closed = await modelServer(() => undefined);
    await closed.close();
    try {
      const cli = io(['models'], { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: `${server.url}/v1`, OLLAMA_BASE_URL: `${closed.url}/v1` });
      expect(await cli.run()).toBe(0);
      const out = cli.out();
      expect(out).toContain(`Served by ${server.url}/v1 (OPENAI_BASE_URL):\n  openai/llama-3.1-8b\n  openai/qwen2.5-coder-7b\n`);
      expect(out).toContain(`${closed.url} (OLLAMA_BASE_URL) did not list its models: no answer (ECONNREFUSED). Check that the server runs, or fix OLLAMA_BASE_URL.\n`);
      // The catalog is still there, and the key went to the OpenAI-compatible server.
      expect(out).toMatch(/^openai\/gpt-5\.2 /m);
      expect(seen).toContain('/v1/models Bearer sk-local');

      const ollama = io(['models', '--json'], { OLLAMA_BASE_URL: server.url });
      expect(await ollama.run()).toBe(0);
      const items = JSON.parse(ollama.out()) as Array<{ id: string; servedBy?: { url: string; source: string } }>;
      expect(items.filter((item) => item.servedBy)).toEqual([{ id: 'ollama/qwen3:8b', displayName: 'qwen3:8b', servedBy: { url: server.url, source: 'OLLAMA_BASE_URL' } }]);

      const skipped = io(['models', '--no-servers'], { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: `${server.url}/v1` });
      const before = seen.length;
      expect(await skipped.run()).toBe(0);
      expect(skipped.out()).not.toContain('Served by');
      expect(seen).toHaveLength(before);
    } finally {
      await server.close();
    }
  });

  it('defaults to a current model of the provider whose key is set, never one past its end of life', () => {
    // claude-sonnet-4-5's end of life is 2026-11-30 in the catalog.
    expect(isCurrentModel('anthropic/claude-sonnet-4-5', new Date('2026-11-30T12:00:00Z'))).toBe(true);
    expect(isCurrentModel('anthropic/claude-sonnet-4-5', new Date('2026-12-01T00:00:00Z'))).toBe(false);
    expect(defaultModel({ ANTHROPIC_API_KEY: 'k' }, new Date('2026-11-01'))).toBe('anthropic/claude-sonnet-4-5');
    expect(defaultModel({ ANTHROPIC_API_KEY: 'k' }, new Date('2026-12-02'))).toBe('anthropic/claude-opus-4-5');
    expect(defaultModel({ ANTHROPIC_API_KEY: 'k' }, new Date('2027-02-01'))).toBe('anthropic/claude-haiku-4-5');
    expect(defaultModel({ OPENAI_API_KEY: 'k' })).toBe('openai/gpt-5.2');
    expect(defaultModel({ GOOGLE_API_KEY: 'k' })).toBe('google/gemini-2.5-pro');
    expect(defaultModel({ CAIRN_MODEL: 'ollama/qwen3', OPENAI_API_KEY: 'k' })).toBe('ollama/qwen3');
    expect(defaultModel({})).toBeUndefined();
    // Every default of today is current.
    for (const env of [{ ANTHROPIC_API_KEY: 'k' }, { OPENAI_API_KEY: 'k' }, { GEMINI_API_KEY: 'k' }]) expect(isCurrentModel(defaultModel(env)!)).toBe(true);
  });
});

/** A small HTTP server answering GET paths with JSON (404 when `answer` returns undefined). */
async function modelServer(answer: (path: string, authorization: string | undefined) => unknown) {
  const server = createServer((request, response) => {
    const body = answer(request.url ?? '', request.headers.authorization);
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
