import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import { scriptedModel, scriptedProvider } from '../src/testing.js';

// The root entry (`@cairn/core`) must bundle for a browser or a worker: these tests bundle it the way an
// app's bundler would and fail naming the import chain that reaches Node. Node-only code belongs in
// src/node.ts (`@cairn/core/node`).

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// The part of esbuild's API used here. esbuild ships with tsup, this package's build tool, so it is loaded
// through tsup's own resolution rather than as a dependency of its own.
interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }>;
}
interface BuildOptions {
  absWorkingDir: string;
  entryPoints: string[];
  bundle: true;
  write: false;
  metafile: boolean;
  platform: 'browser';
  format: 'esm' | 'iife';
  globalName?: string;
  conditions: string[];
  logLevel: 'silent';
  plugins: Plugin[];
}
interface ResolveArgs {
  path: string;
  importer: string;
  resolveDir: string;
  kind: string;
  pluginData?: unknown;
}
interface PluginBuild {
  onResolve(options: { filter: RegExp }, callback: (args: ResolveArgs) => Promise<{ path: string; external: true } | undefined>): void;
  resolve(path: string, options: Omit<ResolveArgs, 'path'>): Promise<{ errors: unknown[] }>;
}
interface Plugin {
  name: string;
  setup(build: PluginBuild): void;
}
interface Esbuild {
  build(options: BuildOptions): Promise<{ metafile?: Metafile; outputFiles: Array<{ text: string }> }>;
}
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsup/package.json'))('esbuild') as Esbuild;

/** `node:os`, `fs`, `fs/promises`, `process`… (a package called e.g. `@scope/fs` is not one). */
function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier) || builtinModules.includes(specifier.split('/')[0] ?? '');
}

/**
 * A Node built-in that esbuild cannot resolve for the browser is left out of the bundle and recorded in the
 * metafile, so the build finishes and every one is reported. One a package maps away for browsers (its
 * `browser` field, as web-tree-sitter does for the `fs` it only touches on Node) resolves and passes.
 */
const resolvingAsBrowser = 'resolving-as-the-browser-would';
const markNodeBuiltinsExternal: Plugin = {
  name: 'mark-node-builtins-external',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === resolvingAsBrowser || !isNodeBuiltin(args.path)) return undefined;
      const { kind, importer, resolveDir } = args;
      const asBrowser = await build.resolve(args.path, { kind, importer, resolveDir, pluginData: resolvingAsBrowser });
      return asBrowser.errors.length > 0 ? { path: args.path, external: true } : undefined;
    });
  },
};

function bundleForBrowser(entry: string, options: Partial<BuildOptions> = {}) {
  return esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    // Sibling @cairn packages resolve to their sources, as in every other test.
    conditions: ['cairn-source'],
    logLevel: 'silent',
    plugins: [markNodeBuiltinsExternal],
    ...options,
  });
}

/** Every Node built-in the bundle imports, as the shortest chain of files from the entry to it. */
function nodeImportChains(metafile: Metafile, entry: string): string[] {
  const reachedFrom = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  const chains: string[] = [];
  const chainTo = (file: string): string[] => {
    const parent = reachedFrom.get(file);
    return parent === undefined ? [file] : [...chainTo(parent), file];
  };
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external) {
        if (isNodeBuiltin(imported.path)) chains.push([...chainTo(file), imported.path].join(' -> '));
      } else if (!reachedFrom.has(imported.path)) {
        reachedFrom.set(imported.path, file);
        queue.push(imported.path);
      }
    }
  }
  return chains.sort();
}

/** What a browser page or a web worker has: web APIs, and no `process`, `Buffer` or `require`. */
function browserLikeRealm(): vm.Context {
  const webGlobals = [
    'AbortController', 'AbortSignal', 'Blob', 'DOMException', 'Event', 'EventTarget', 'Headers', 'ReadableStream', 'Request', 'Response', 'TextDecoder',
    'TextEncoder', 'TransformStream', 'URL', 'URLSearchParams', 'WritableStream', 'atob', 'btoa', 'clearInterval', 'clearTimeout', 'console', 'crypto',
    'fetch', 'performance', 'queueMicrotask', 'setInterval', 'setTimeout', 'structuredClone',
  ] as const;
  return vm.createContext(Object.fromEntries(webGlobals.map((name) => [name, globalThis[name]])));
}

/** Runs the root entry, bundled as a script, in a realm without Node's globals and returns its exports. */
async function loadRootInBrowserRealm(): Promise<Record<string, unknown>> {
  const result = await bundleForBrowser('src/index.ts', { format: 'iife', globalName: 'cairnCore', metafile: false });
  const realm = browserLikeRealm();
  vm.runInContext(`${result.outputFiles[0]?.text ?? ''}\nglobalThis.cairnCore = cairnCore;`, realm, { filename: 'cairn-core-browser-bundle.js' });
  return realm.cairnCore as Record<string, unknown>;
}

describe('the root entry in a browser', () => {
  it('imports no Node built-in, directly or through a dependency', async () => {
    const { metafile } = await bundleForBrowser('src/index.ts');
    const chains = nodeImportChains(metafile as Metafile, 'src/index.ts');
    expect(chains, `Each chain runs from the root entry to a Node built-in. Cut it: export the Node-only module from src/node.ts instead of src/index.ts, or move what a browser-safe module needs out of the module that imports Node:\n${chains.join('\n')}`).toEqual([]);
  });

  it('names the chain to each Node built-in it reaches, and lets a package map one away for browsers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-browser-root-'));
    try {
      const files: Record<string, string> = {
        'entry.ts': "export { homeFolder } from './middle.js';\nexport { readsOnNode } from 'reads-on-node';\n",
        'middle.ts': "import { homedir } from 'node:os';\nimport { readFileSync } from 'fs';\nexport const homeFolder = () => [homedir(), readFileSync];\n",
        'node_modules/reads-on-node/package.json': JSON.stringify({ name: 'reads-on-node', main: 'index.js', browser: { fs: false } }),
        'node_modules/reads-on-node/index.js': "import * as fs from 'fs';\nexport const readsOnNode = () => fs.readFileSync;\n",
      };
      for (const [file, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        await writeFile(join(dir, file), text);
      }
      const { metafile } = await bundleForBrowser('entry.ts', { absWorkingDir: dir });
      expect(Object.keys((metafile as Metafile).inputs)).toContain('node_modules/reads-on-node/index.js');
      expect(nodeImportChains(metafile as Metafile, 'entry.ts')).toEqual(['entry.ts -> middle.ts -> fs', 'entry.ts -> middle.ts -> node:os']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads without process, Buffer or require and exports what it exports on Node', async () => {
    const exported = await loadRootInBrowserRealm();
    expect(Object.keys(exported).sort()).toEqual(Object.keys(root).sort());
  });

  it('resolves a model when keys come from settings, with no process.env to read', async () => {
    const { createRegistry } = (await loadRootInBrowserRealm()) as unknown as typeof root;
    const seenEnvironments: unknown[] = [];
    const model = scriptedModel([{ text: 'hello' }]);
    const provider = scriptedProvider({ 'chat-model': model }, 'web');
    const registry = createRegistry([
      {
        name: 'web-provider',
        providers: [
          {
            ...provider,
            languageModel(id, context) {
              seenEnvironments.push(context.env);
              return provider.languageModel(id);
            },
          },
        ],
      },
    ]);
    const resolved = registry.resolveModel('web/chat-model', { providers: { web: { apiKey: 'from-settings' } } });
    expect(resolved.id).toBe('web/chat-model');
    expect(resolved.model).toBe(model);
    expect(seenEnvironments).toEqual([{}]);
  });
});
