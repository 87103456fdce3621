import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { bundleSources } from '../../../../scripts/testing/bundle-sources.js';

const packageRoot = resolve(import.meta.dirname, '../..');

/** Bundle worker-main.ts from the current sources (the `cairn-source` condition) for child processes. */
export async function buildWorkerProcess(): Promise<{ script: string; dispose(): void }> {
  const bundle = await bundleSources(join(packageRoot, 'test/process/worker-main.ts'), join(packageRoot, 'node_modules', '.cache', `cairn-worker-process-${process.pid}`), 'worker');
  return { script: bundle.file, dispose: bundle.dispose };
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
