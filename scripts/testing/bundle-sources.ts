// Test processes (a `cairn` CLI, a worker) run bundles of the current sources, so tests see every
// change without a build. Shared by the packages whose tests start such processes.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Only the workspace's own TypeScript is bundled; every other package stays an import of the very
 * file the sources resolve it to. That keeps native addons (better-sqlite3), wasm (ink's yoga) and
 * CommonJS packages loading the way they do in an installed package, while the bundle may live anywhere.
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

/** Bundle `entry` (a .ts file) from the sources (the `cairn-source` condition) into `outDir` as `<name>.js`. */
export async function bundleSources(entry: string, outDir: string, name: string): Promise<{ file: string; dispose(): void }> {
  await build({
    config: false,
    entry: { [name]: entry },
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
  return { file: join(outDir, `${name}.js`), dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}
