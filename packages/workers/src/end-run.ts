import { type AgentStore, backgroundRunInfo, type RunStatus } from '@cairn/core';
import { closeRun } from '@cairn/core/node';

/** Long enough for the two writes that end a run; released right after them. */
const endingLeaseMs = 30_000;

/**
 * End a queued run nobody executes, the way a worker would: take the agent's lease first (granted
 * only when it is free or expired on the store's clock), so a worker that was paused and comes back
 * late finds its lease fenced and cannot write after the end; then the final status event and the
 * record (core's closeRun), then release. False when the run ended meanwhile or the agent is held
 * by a live process (the next pass tries again).
 */
export async function endQueuedRun(
  store: AgentStore,
  owner: string,
  runId: string,
  status: Exclude<RunStatus, 'running'>,
  error?: { message: string; code: string },
): Promise<boolean> {
  const run = await store.runs.get(runId);
  if (!run || run.status !== 'running' || !backgroundRunInfo(run)) return false;
  const taken = await store.agents.acquireLease(run.agentId, { runId, owner, expiresAt: Date.now() + endingLeaseMs });
  if (!taken.acquired) return false;
  try {
    // Read again under the lease: the holder that just let go may have ended it.
    const current = await store.runs.get(runId);
    if (!current || current.status !== 'running') return false;
    await closeRun(store, current, status, error);
    return true;
  } finally {
    await store.agents.releaseLease(run.agentId, runId);
  }
}
