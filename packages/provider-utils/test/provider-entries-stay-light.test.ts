import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The part of esbuild's API this test uses (esbuild is tsup's dependency, not one of ours, so no types). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ metafile: { inputs: Record<string, unknown> }; outputFiles: Array<{ text: string }> }>;
}

// esbuild comes with tsup (a dev dependency of every package); it is what bundles the packages for shipping.
const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve('tsup'))('esbuild') as Esbuild;

const packagesDir = fileURLToPath(new URL('../..', import.meta.url));
// The SDKs are imported lazily, on the first request; they are not part of what an import loads.
const sdks = ['openai', 'openai/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*', '@google/genai', '@google/genai/*'];

/** Every file a bundle of `entry` pulls in, relative to packages/ (dependencies as node_modules/<name>/...). */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [resolve(packagesDir, entry)],
    absWorkingDir: packagesDir,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    conditions: ['cairn-source'],
    external: sdks,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs).map((input) => relative(packagesDir, resolve(packagesDir, input)).replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'node_modules/'));
}

// What a provider may load of core: the error classes and the retry advice they carry.
const allowedCoreFiles = /^core\/src\/(errors\.ts|spec\/errors\/[a-z-]+\.ts|model-call\/retry-after\.ts)$/;

describe('importing a provider loads no runtime', () => {
  it.each(['providers/openai/src/index.ts', 'providers/anthropic/src/index.ts', 'providers/google/src/index.ts', 'provider-utils/src/index.ts'])(
    '%s pulls in core errors only: no agent, run machine or dependency (xstate, zod, tree-sitter)',
    async (entry) => {
      const files = await bundledFiles(entry);
      const coreFiles = files.filter((file) => file.startsWith('core/'));
      expect(coreFiles.filter((file) => !allowedCoreFiles.test(file))).toEqual([]);
      expect(coreFiles).toContain('core/src/spec/errors/errors.ts');
      expect(files.filter((file) => file.startsWith('node_modules/'))).toEqual([]);
    },
  );

  it('the check sees the runtime when it is there: the core root entry pulls in xstate and tree-sitter', async () => {
    const files = await bundledFiles('core/src/index.ts');
    expect(files.some((file) => file.startsWith('node_modules/xstate/'))).toBe(true);
    expect(files.some((file) => file.startsWith('node_modules/web-tree-sitter/'))).toBe(true);
    expect(files.some((file) => file.startsWith('core/src/runtime/'))).toBe(true);
  });
});

describe('@cairn/core/spec', () => {
  it('is types only: its bundle has no code at all', async () => {
    const result = await esbuild.build({ entryPoints: [resolve(packagesDir, 'core/src/spec.ts')], bundle: true, write: false, format: 'esm', platform: 'node', conditions: ['cairn-source'], logLevel: 'silent' });
    const code = result.outputFiles[0]!.text.replace(/\/\/.*$/gm, '').trim();
    expect(code).toBe('');
  });
});

describe('@cairn/provider-utils entries', () => {
  /** The Node built-ins a bundle of `entry` imports (`node:http`...), dynamic imports included. */
  async function nodeBuiltins(entry: string): Promise<string[]> {
    const result = await esbuild.build({ entryPoints: [resolve(packagesDir, entry)], absWorkingDir: packagesDir, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', conditions: ['cairn-source'], logLevel: 'silent' });
    const inputs = Object.values(result.metafile.inputs) as Array<{ imports: Array<{ path: string; external?: boolean }> }>;
    return [...new Set(inputs.flatMap((input) => input.imports.filter((imported) => imported.external && imported.path.startsWith('node:')).map((imported) => imported.path)))].sort();
  }

  it('the root entry imports no Node built-in; the node-http entry is where node:http lives', async () => {
    expect(await nodeBuiltins('provider-utils/src/index.ts')).toEqual([]);
    expect(await nodeBuiltins('provider-utils/src/node-http-fetch.ts')).toEqual(['node:http', 'node:https', 'node:zlib']);
  });
});
