import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { closeRun } from './recovery.js';
import type { Run, RunResult } from './run.js';
import { addUsage, emptyUsage } from './token-usage.js';

/**
 * `run.usage` is the running total while the run is in flight: each turn that reported usage adds
 * to the run's record in this process. The run executor writes the same total to the store (with
 * the step's checkpoint, or on its own: run-stream-step.ts), so Agent.getRun readers see it too.
 */
export function recordTurnUsage(run: Run, update: InteractionUpdate): void {
  if (update.type !== 'turn-ended' || !update.usage) return;
  const turn = { ...update.usage, totalTokens: update.usage.totalTokens ?? update.usage.inputTokens + update.usage.outputTokens };
  const usage = addUsage(run.usage ?? emptyUsage(), turn);
  run.updateRecord({ ...run.currentRecord(), usage, updatedAt: Date.now() });
}

/** The run threw (a store or checkpoint failure): end it in the store too, so streams and other processes see it end. */
export async function failedRunResult(store: AgentStore, run: Run, error: unknown): Promise<RunResult> {
  const message = error instanceof Error ? error.message : String(error);
  const failure = { message, code: (error as { code?: string })?.code ?? 'run_failed' };
  const closed = await closeRun(store, run.currentRecord(), 'error', failure).catch(() => undefined);
  run.updateRecord(closed ?? { ...run.currentRecord(), status: 'error', error: failure });
  return { ...run.toResult(), status: 'error', error: failure };
}
