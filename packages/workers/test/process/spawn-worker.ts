import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const packageRoot = resolve(import.meta.dirname, '../..');

/** Only the workspace's TypeScript is bundled; every other package is imported from the file the sources resolve it to. */
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

/** Bundled sources keep their own file's URL, so lazy `createRequire(import.meta.url)` loads still resolve from their package. */
const keepSourceUrls: Plugin = {
  name: 'cairn-keep-source-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/** Bundle worker-main.ts from the current sources (the `cairn-source` condition) for child processes. */
export async function buildWorkerProcess(): Promise<{ script: string; dispose(): void }> {
  const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-worker-process-${process.pid}`);
  await build({
    config: false,
    entry: { worker: join(packageRoot, 'test/process/worker-main.ts') },
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
  return { script: join(outDir, 'worker.js'), dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}

export interface WorkerProcess {
  pid: number;
  workerId: string;
  child: ChildProcess;
  /** Resolves with the signal or exit code once the process is gone. */
  exited: Promise<string>;
  /** What it printed on stderr (its worker's warnings and errors). */
  stderr(): string;
}

/** Start a worker process and wait until it takes jobs. */
export async function spawnWorker(script: string, env: Record<string, string | undefined>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const exited = new Promise<string>((resolveExit) => child.once('exit', (code, signal) => resolveExit(signal ?? String(code))));
  const workerId = await new Promise<string>((resolveReady, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const ready = /^ready (\S+)$/m.exec(stdout);
      if (ready) resolveReady(ready[1] as string);
    });
    void exited.then((how) => reject(new Error(`The worker process exited (${how}) before it was ready:\n${stderr}`)));
  });
  return { pid: child.pid as number, workerId, child, exited, stderr: () => stderr };
}
