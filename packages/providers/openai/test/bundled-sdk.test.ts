// The package as built (tsup.config.ts): the `openai` SDK is bundled into one chunk that only a
// dynamic import reaches, so importing the provider loads none of it and resolving a model loads
// one file instead of about 154 (docs/benchmarks.md, "Start-up"). The built package then streams
// from a real local server in a fresh process.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildMetafile, buildPackageForTest, type PackageBuild } from '../../../../scripts/testing/package-build.js';
import config from '../tsup.config.js';

const run = promisify(execFile);
let built: PackageBuild;
let outDir: string;
let metafile: BuildMetafile;

beforeAll(async () => {
  built = await buildPackageForTest(resolve(import.meta.dirname, '..'), config as object, 'openai');
  ({ outDir, metafile } = built);
}, 60_000);
afterAll(() => built?.remove());

describe('the built @cairn/provider-openai', () => {
  it('bundles the openai SDK into a chunk reached only by a dynamic import', () => {
    const outputs = Object.entries(metafile.outputs).filter(([name]) => name.endsWith('.js'));
    const externalOpenAI = outputs.flatMap(([, output]) => output.imports.filter((imported) => imported.external && /^openai(\/|$)/.test(imported.path)));
    expect(externalOpenAI).toEqual([]);
    const [, index] = outputs.find(([, output]) => output.entryPoint?.endsWith('src/index.ts')) ?? [];
    expect(index?.imports.filter((imported) => !imported.external).map((imported) => imported.kind)).toEqual(['dynamic-import']);
  });

  it('streams a Chat Completions answer from a local server in a fresh process', async () => {
    const server = await startChatCompletionsServer([{ text: 'built and bundled' }]);
    const script = `
      const { createOpenAI } = await import(${JSON.stringify(join(outDir, 'index.js'))});
      const model = createOpenAI({ baseURL: ${JSON.stringify(server.url)}, apiKey: 'sk-test' }).languageModel('gpt-4.1-mini', { settings: {}, env: {} });
      const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
      let text = '';
      for await (const part of stream) if (part.type === 'text-delta') text += part.delta;
      process.stdout.write(JSON.stringify({ text }));`;
    try {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000, env: { ...process.env, OPENAI_API: 'chat' } });
      expect(JSON.parse(stdout)).toEqual({ text: 'built and bundled' });
      expect(server.requests).toHaveLength(1);
      expect(server.problems).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
