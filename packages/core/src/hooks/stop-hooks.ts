import type { StopHookInput, StopHookOutput } from '../machine/run-machine-types.js';
import { maxStopHookContinues, type RunHooks } from './run-hooks.js';

/**
 * The `stopping` state's work: ask the stop hooks whether the run may finish. A block keeps it
 * going with the hook's reason as the next user message, at most `maxStopHookContinues` times per
 * run; past that the run finishes anyway and `notify` says why (the payload's `stop_hook_active` /
 * `loop_count` let a script stop asking sooner).
 */
export async function runStopHooks(hooks: RunHooks, base: { agentId: string; runId: string; cwd: string }, input: StopHookInput, signal: AbortSignal, notify: (text: string) => Promise<void>): Promise<StopHookOutput> {
  const answer = await hooks.stop({ ...base, mode: input.mode, stopHookActive: input.continues > 0, continues: input.continues, result: input.result }, { signal });
  if (signal.aborted) throw signal.reason;
  if (answer.decision !== 'block') return {};
  if (input.continues >= maxStopHookContinues) {
    await notify(`A stop hook asked again to keep the run going; it already did ${input.continues} times, the most one run allows, so the run ends here.`);
    return {};
  }
  return { continueWith: `Stop hook feedback:\n${answer.reason ?? 'Keep going: the task is not done yet.'}` };
}
