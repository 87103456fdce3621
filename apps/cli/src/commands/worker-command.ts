import { Agent, type CairnAgent } from '@cairn/sdk';
import { describeCliError } from '../cli-errors.js';
import { cliHookLocalOptions } from './hooks-trust.js';
import { cliMcpLocalOptions } from './mcp-trust.js';
import { openSharedStore } from './shared-store.js';

export interface WorkerCommandOptions {
  store: string;
  concurrency: number;
  workDir?: string;
  sandbox: boolean;
  shutdownGraceMs?: number;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** Resolves when the worker should stop (SIGINT / SIGTERM): it finishes or hands back its runs. */
  stopped: Promise<void>;
}

/**
 * `cairn worker --store postgres://…`: executes background runs queued on that database, on this
 * machine, `--concurrency` at a time (docs/background-agents.md). Stopping finishes the runs in
 * flight within the grace period and hands the rest back to other workers.
 */
export async function runWorkerCommand(options: WorkerCommandOptions): Promise<number> {
  const { startWorker } = await import('@cairn/workers');
  let shared: Awaited<ReturnType<typeof openSharedStore>>;
  try {
    shared = await openSharedStore(options.store);
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return 1;
  }
  const { store, queue } = shared;
  try {
    const worker = await startWorker({
      connectionString: options.store,
      store,
      concurrency: options.concurrency,
      ...(options.workDir ? { workDir: options.workDir } : {}),
      ...(options.shutdownGraceMs !== undefined ? { shutdownGraceMs: options.shutdownGraceMs } : {}),
      openAgent: (agentId, place) => resumeForWorker(agentId, place?.cwd, store, options),
    });
    options.stdout.write(`cairn worker ${worker.workerId} taking runs (concurrency ${options.concurrency})\n`);
    await options.stopped;
    options.stderr.write(`cairn worker: stopping — finishing or handing back ${worker.running()} run(s)\n`);
    await worker.stop();
    return 0;
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return 1;
  } finally {
    await queue.close();
    await store.close();
  }
}

/** The agent as a headless run would open it, in the worker's environment and the run's folder. */
function resumeForWorker(agentId: string, cwd: string | undefined, store: import('@cairn/core').AgentStore, options: WorkerCommandOptions): Promise<CairnAgent> {
  const trustIo = { cwd: cwd ?? process.cwd(), env: options.env, stderr: options.stderr };
  return Agent.resume(agentId, {
    env: options.env,
    local: {
      store,
      ...(cwd ? { cwd } : {}),
      ...(options.sandbox ? { sandboxOptions: { enabled: true } } : {}),
      ...cliMcpLocalOptions(trustIo),
      ...cliHookLocalOptions(trustIo),
    },
  });
}
