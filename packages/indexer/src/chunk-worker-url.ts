import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let sourceBundle: Promise<URL> | undefined;

/**
 * Where the chunk worker's script is. Built, it is `chunk-worker.js` beside this module (its own
 * tsup entry). Run from the TypeScript sources (the `cairn-source` condition, i.e. this
 * repository's tests), a worker thread cannot load `.ts`: the worker entry is bundled with tsup (a
 * dev dependency, present wherever the sources are) into node_modules/.cache, once per version of
 * the sources.
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

/**
 * Keyed by the sources' content, so processes share one bundle and an edit makes a new one; built
 * in a folder of its own and renamed into place, so two processes never see a half-written file.
 */
async function bundleSourceWorker(): Promise<URL> {
  const sourceFolder = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const name of readdirSync(sourceFolder).filter((file) => file.endsWith('.ts')).sort()) hash.update(name).update(readFileSync(join(sourceFolder, name)));
  const cache = join(sourceFolder, '..', 'node_modules', '.cache');
  const final = join(cache, `cairn-chunk-worker-${hash.digest('hex').slice(0, 16)}`);
  const script = join(final, 'chunk-worker.js');
  if (existsSync(script)) return pathToFileURL(script);
  const building = `${final}-${process.pid}`;
  mkdirSync(building, { recursive: true });
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: { 'chunk-worker': join(sourceFolder, 'chunk-worker.ts') },
    outDir: building,
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
  try {
    renameSync(building, final);
  } catch {
    // Another process was first: use its bundle.
    rmSync(building, { recursive: true, force: true });
  }
  return pathToFileURL(script);
}
