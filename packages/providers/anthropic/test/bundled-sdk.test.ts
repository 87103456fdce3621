// The package as built (tsup.config.ts): the Anthropic SDK is bundled into chunks that only a
// dynamic import reaches, so importing the provider loads none of it and the first request loads
// a few files instead of a few hundred (docs/benchmarks.md, "Start-up"). The built package then
// streams a recorded answer from a local server in a fresh process.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fixtureResponse, startFixtureServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuildMetafile, buildPackageForTest, type PackageBuild } from '../../../../scripts/testing/package-build.js';
import config from '../tsup.config.js';

const run = promisify(execFile);
let built: PackageBuild;
let outDir: string;
let metafile: BuildMetafile;

beforeAll(async () => {
  built = await buildPackageForTest(resolve(import.meta.dirname, '..'), config as object, 'anthropic');
  ({ outDir, metafile } = built);
}, 60_000);
afterAll(() => built?.remove());

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
