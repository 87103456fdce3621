import { type ChildProcess, spawn } from 'node:child_process';

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  signal(name: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

/** `cairn worker --store <url>` from the bundled CLI as a real process; resolves once it takes runs. */
export async function startWorkerProcess(bin: string, options: { store: string; env: Record<string, string | undefined>; args?: string[] }): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [bin, 'worker', '--store', options.store, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cairn worker did not start:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      if (out.includes('taking runs')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`cairn worker exited:\n${out}`)));
  });
  return {
    child,
    pid: child.pid!,
    output: () => out,
    exited,
    signal: (name) => child.kill(name),
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The pid in a lease owner or run owner id (`process-<uuid>:<pid>@<host>`). */
export function pidOfOwner(owner: string | undefined): number | undefined {
  const match = /^process-[0-9a-f-]+:(\d+)@/.exec(owner ?? '');
  return match ? Number(match[1]) : undefined;
}
