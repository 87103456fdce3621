// The package as built (tsup.config.ts): the Anthropic SDK is bundled into chunks that only a
// dynamic import reaches, so importing the provider loads none of it and the first request loads
// a few files instead of a few hundred (docs/benchmarks.md, "Start-up"). The built package then
// streams a recorded answer from a local server in a fresh process.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../tsup.config.js';

interface Metafile {
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; entryPoint?: string; inputs: Record<string, unknown> }>;
}

const run = promisify(execFile);
const packageRoot = resolve(import.meta.dirname, '..');
// Inside the package's node_modules, so the build resolves @cairn/core and @cairn/provider-utils as the published package does.
const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-anthropic-build-${process.pid}`);
let metafile: Metafile;

beforeAll(async () => {
  await build({ ...(config as object), config: false, entry: { index: join(packageRoot, 'src/index.ts') }, outDir, dts: false, sourcemap: false, silent: true, metafile: true });
  const file = readdirSync(outDir).find((name) => name.startsWith('metafile-') && name.endsWith('.json'));
  metafile = JSON.parse(readFileSync(join(outDir, file as string), 'utf8')) as Metafile;
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the built @cairn/provider-anthropic', () => {
  it('bundles the Anthropic SDK into chunks reached only by a dynamic import', () => {
    const outputs = Object.entries(metafile.outputs).filter(([name]) => name.endsWith('.js'));
    const externalSdk = outputs.flatMap(([, output]) => output.imports.filter((imported) => imported.external && imported.path.startsWith('@anthropic-ai/')));
    expect(externalSdk).toEqual([]);
    // What importing the package loads: the entry and the chunks it imports statically (esbuild's
    // small runtime-helper chunk among them); none of them holds code of a dependency.
    const entry = outputs.find(([, output]) => output.entryPoint?.endsWith('src/index.ts'))?.[0] as string;
    const loaded = new Set<string>();
    const visit = (name: string) => {
      if (loaded.has(name)) return;
      loaded.add(name);
      for (const imported of metafile.outputs[name]?.imports ?? []) if (!imported.external && imported.kind === 'import-statement') visit(imported.path);
    };
    visit(entry);
    const dependencyCode = [...loaded].flatMap((name) => Object.keys(metafile.outputs[name]?.inputs ?? {}).filter((input) => input.includes('node_modules/')));
    expect(dependencyCode).toEqual([]);
    expect(metafile.outputs[entry]?.imports.some((imported) => imported.kind === 'dynamic-import')).toBe(true);
  });

  it('streams a recorded Messages answer from a local server in a fresh process', async () => {
    const server = await startFixtureServer([fixtureResponse('anthropic/stream-text.sse')]);
    const script = `
      const { createAnthropic } = await import(${JSON.stringify(join(outDir, 'index.js'))});
      const model = createAnthropic({ apiKey: 'test-key', baseURL: ${JSON.stringify(server.url)} }).languageModel('claude-haiku-4-5');
      const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'What is 1 + 1?' }] }] });
      const types = [];
      let text = '';
      for await (const part of stream) {
        types.push(part.type);
        if (part.type === 'text-delta') text += part.delta;
      }
      process.stdout.write(JSON.stringify({ text, finished: types.includes('finish') }));`;
    try {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
      expect(JSON.parse(stdout)).toEqual({ text: '2', finished: true });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
