import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The worker threads' entries: each is its own tsup entry, a `.js` file beside this module. */
export type WorkerEntry = 'chunk-worker';
const workerEntries: WorkerEntry[] = ['chunk-worker'];

let sourceBundle: Promise<URL> | undefined;

/**
 * Where a worker's script is. Built, it is `<entry>.js` beside this module (its own tsup entry).
 * Run from the TypeScript sources (the `cairn-source` condition, i.e. this repository's tests), a
 * worker thread cannot load `.ts`: the worker entries are bundled with tsup (a dev dependency,
 * present wherever the sources are) into node_modules/.cache, once per version of the sources.
 */
export function workerScriptUrl(entry: WorkerEntry): Promise<URL> {
  const built = new URL(`./${entry}.js`, import.meta.url);
  if (!import.meta.url.endsWith('.ts')) {
    if (!existsSync(fileURLToPath(built))) return Promise.reject(new Error(`${fileURLToPath(built)} is missing: the @cairn/indexer build is incomplete; reinstall it.`));
    return Promise.resolve(built);
  }
  sourceBundle ??= bundleSourceWorkers();
  return sourceBundle.then((folder) => new URL(`./${entry}.js`, folder));
}

/** The chunk pool's worker (chunk-workers.ts). */
export const chunkWorkerUrl = (): Promise<URL> => workerScriptUrl('chunk-worker');

/**
 * Keyed by the sources' content, so processes share one bundle and an edit makes a new one; built
 * in a folder of its own and renamed into place, so two processes never see a half-written file.
 */
async function bundleSourceWorkers(): Promise<URL> {
  const sourceFolder = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const name of readdirSync(sourceFolder).filter((file) => file.endsWith('.ts')).sort()) hash.update(name).update(readFileSync(join(sourceFolder, name)));
  const cache = join(sourceFolder, '..', 'node_modules', '.cache');
  const final = join(cache, `cairn-workers-${hash.digest('hex').slice(0, 16)}`);
  const folderUrl = pathToFileURL(`${final}/`);
  if (workerEntries.every((entry) => existsSync(join(final, `${entry}.js`)))) return folderUrl;
  const building = `${final}-${process.pid}`;
  mkdirSync(building, { recursive: true });
  const { build } = await import('tsup');
  await build({
    config: false,
    entry: Object.fromEntries(workerEntries.map((entry) => [entry, join(sourceFolder, `${entry}.ts`)])),
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
  return folderUrl;
}
