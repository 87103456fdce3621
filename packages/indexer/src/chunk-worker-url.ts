import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let sourceBundle: Promise<URL> | undefined;

/**
 * Where the chunk worker's script is. Built, it is `chunk-worker.js` beside this module (its own
 * tsup entry). Run from the TypeScript sources (the `cairn-source` condition, i.e. this
 * repository's tests), a worker thread cannot load `.ts`: the worker entry is bundled once per
 * process with tsup (a dev dependency, present wherever the sources are) into node_modules/.cache.
 */
export function chunkWorkerUrl(): Promise<URL> {
  const built = new URL('./chunk-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) {
    if (!existsSync(fileURLToPath(built))) return Promise.reject(new Error(`${fileURLToPath(built)} is missing: the @cairn/indexer build is incomplete; reinstall it.`));
    return Promise.resolve(built);
  }
  sourceBundle ??= bundleSourceWorker();
  return sourceBundle;
}

async function bundleSourceWorker(): Promise<URL> {
  const sourceFolder = dirname(fileURLToPath(import.meta.url));
  const outDir = join(sourceFolder, '..', 'node_modules', '.cache', `cairn-chunk-worker-${process.pid}`);
  mkdirSync(outDir, { recursive: true });
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: { 'chunk-worker': join(sourceFolder, 'chunk-worker.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    splitting: false,
    // Its wasm runtime is found next to its own script, so it stays a package import.
    external: ['web-tree-sitter'],
  });
  return pathToFileURL(join(outDir, 'chunk-worker.js'));
}
