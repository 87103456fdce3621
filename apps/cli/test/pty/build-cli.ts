import { readFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const cliRoot = resolve(import.meta.dirname, '../..');

/**
 * Only the workspace's own TypeScript is bundled; every other package stays an import of the very
 * file the sources resolve it to. That keeps native addons (better-sqlite3), wasm (ink's yoga) and
 * CommonJS packages loading the way they do in an installed CLI, while the bundle may live anywhere.
 */
const externalByRealPath: Plugin = {
  name: 'cairn-external-by-real-path',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === 'resolving' || isAbsolute(args.path) || args.path.startsWith('node:') || args.path.startsWith('@cairn/')) return undefined;
      const resolved = await esbuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
      if (resolved.errors.length > 0 || !isAbsolute(resolved.path)) return undefined;
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * Workspace packages load some dependencies lazily with `createRequire(import.meta.url)` (the SQLite
 * driver, tree-sitter grammars, turndown): each bundled source keeps its own file's URL, so those
 * still resolve from the package that declares them.
 */
const keepSourceUrls: Plugin = {
  name: 'cairn-keep-source-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = await readFile(args.path, 'utf8');
      const contents = source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

export interface BuiltCli {
  /** The bundled `bin.js`: run it with `node`. */
  bin: string;
  dispose(): void;
}

/** Bundle `src/bin.ts` from the current sources (the `cairn-source` condition) for a test process. */
export async function buildCli(name: string): Promise<BuiltCli> {
  const outDir = join(cliRoot, 'node_modules', '.cache', `cairn-pty-${name}-${process.pid}`);
  await build({
    config: false,
    entry: { bin: join(cliRoot, 'src/bin.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    splitting: false,
    noExternal: [/^@cairn\//],
    esbuildPlugins: [externalByRealPath, keepSourceUrls],
    esbuildOptions(options) {
      options.conditions = ['cairn-source'];
    },
  });
  return { bin: join(outDir, 'bin.js'), dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}
