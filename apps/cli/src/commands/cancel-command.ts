import { Agent } from '@cairn/sdk';
import { describeCliError, exitCodeFor } from '../cli-errors.js';

export interface CancelCommandOptions {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** How long to wait for the run to end before giving up on seeing it (the request stays). */
  timeoutMs: number;
}

/**
 * `cairn cancel <agentId>`: ends the agent's running run, whichever process runs it. The request
 * goes through the store (the run's `cancelRequested`); the running process sees it at its next
 * heartbeat (about a second) and ends the run as cancelled. A run whose process died is closed here.
 */
export async function runCancelCommand(agentId: string, options: CancelCommandOptions): Promise<number> {
  try {
    await Agent.get(agentId);
    const page = await Agent.listRuns(agentId, { limit: 10 });
    const running = page.items.filter((run) => run.status === 'running');
    if (running.length === 0) {
      options.stdout.write(`Agent ${agentId} has no running run: nothing to cancel.\n`);
      return 0;
    }
    for (const run of running) {
      const ended = await settledWithin(run.cancel(), options.timeoutMs);
      if (!ended) {
        options.stderr.write(`cairn: run ${run.id} was asked to cancel but has not ended after ${options.timeoutMs / 1000} s. Take the agent over with: cairn --resume ${agentId} --force "..."\n`);
        return 1;
      }
      options.stdout.write(`Cancelled run ${run.id} of agent ${agentId}. Continue with: cairn --resume ${agentId} "..."\n`);
    }
    return 0;
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}

async function settledWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
