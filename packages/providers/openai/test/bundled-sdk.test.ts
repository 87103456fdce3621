// The package as built (tsup.config.ts): the `openai` SDK is bundled into one chunk that only a
// dynamic import reaches, so importing the provider loads none of it and resolving a model loads
// one file instead of about 154 (docs/benchmarks.md, "Start-up"). The built package then streams
// from a real local server in a fresh process.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.js';

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; entryPoint?: string }>;
}

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
// Inside the package's node_modules, so the build resolves @cairn/core and @cairn/provider-utils as the published package does.
const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-openai-build-${process.pid}`);
let metafile: Metafile;

beforeAll(async () => {
  await build({ ...(config as object), config: false, entry: { index: join(packageRoot, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, metafile: true });
  const file = readdirSync(outDir).find((name) => name.startsWith('metafile-') && name.endsWith('.json'));
  metafile = JSON.parse(readFileSync(join(outDir, file as string), 'utf8')) as Metafile;
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

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
