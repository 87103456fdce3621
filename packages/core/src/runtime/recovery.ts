import { sdkStatusOf } from './status-message.js';
import { backgroundRunInfo } from './background-run.js';
import { hostname } from 'node:os';
import type { RunStatus } from '../spec/events/v1/index.js';
import type { AgentLease, AgentRecord, AgentStore, LeaseResult, RunRecord } from '../spec/store/v1/index.js';

/**
 * A process identity for leases and run records: `process-<uuid>:<pid>@<host>`. The uuid keeps two
 * Cairn instances of one process apart; pid and host let another process on the same machine see
 * that the holder of a lease is gone (killed) without waiting for the lease to expire.
 */
export function newOwnerId(): string {
  const pid = globalThis.process?.pid ?? 0;
  return `process-${globalThis.crypto.randomUUID()}:${pid}@${hostname()}`;
}

/**
 * True only when the owner is certainly dead: it ran on this host and its pid no longer exists.
 * Owners of other hosts, of other formats, or whose pid exists (perhaps reused) count as alive,
 * so a wrong answer can only make a caller wait for the lease to expire.
 */
export function ownerIsGone(owner: string): boolean {
  const match = /^process-[0-9a-f-]+:(\d+)@(.+)$/.exec(owner);
  if (!match || match[2] !== hostname()) return false;
  const pid = Number(match[1]);
  if (!pid || pid === globalThis.process?.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A lease nobody can be using any more: absent, expired at `now`, or held by a dead process. */
export function leaseIsStale(lease: AgentLease | null | undefined, now = Date.now()): boolean {
  return !lease || lease.expiresAt <= now || ownerIsGone(lease.owner);
}

/**
 * Take an agent's lease. When the holder is a dead process of this host, take it over at once —
 * atomically: `now` is set to the dead lease's expiry, so the store only grants it while that very
 * lease (or an older one) is still there; a process that took it first wins. `forcedFrom` is the
 * live lease `force` took away (its process is asked to cancel its run, see recoverInterruptedRuns).
 */
export async function acquireAgentLease(store: AgentStore, agentId: string, lease: AgentLease, force: boolean): Promise<LeaseResult & { forcedFrom?: AgentLease }> {
  const before = force ? (await store.agents.get(agentId))?.lease : undefined;
  // No `now`: the store decides expiry on its own clock (the database's, for a shared one).
  const result = await store.agents.acquireLease(agentId, lease, { force });
  if (result.acquired) return before && before.owner !== lease.owner && !leaseIsStale(before) ? { acquired: true, forcedFrom: before } : result;
  if (!ownerIsGone(result.holder.owner)) return result;
  return store.agents.acquireLease(agentId, lease, { now: result.holder.expiresAt });
}

export const interruptedError = {
  message: 'The process running this run stopped before it finished; the run was closed when the agent was next used.',
  code: 'interrupted',
};

/**
 * End a run in the store: the final status event first, then the record. In that order a reader
 * that sees the record ended and then reads the log to its end has the final event too.
 */
export async function closeRun(store: AgentStore, run: Pick<RunRecord, 'runId' | 'agentId' | 'createdAt'>, status: Exclude<RunStatus, 'running'>, error?: { message: string; code: string }): Promise<RunRecord> {
  const now = Date.now();
  await store.runEvents.append(run.runId, [
    { kind: 'message', message: { type: 'status', status: sdkStatusOf(status), ...(error ? { error, message: error.message } : {}), agent_id: run.agentId, run_id: run.runId } },
  ]);
  return store.runs.update(run.runId, { status, ...(error ? { error } : {}), finishedAt: now, updatedAt: now, durationMs: Math.max(0, now - run.createdAt) });
}

/**
 * Close runs left `running` by a process that died (its lease expired, was taken over, or its
 * process is gone): they end as `error` with code `interrupted`, and a final status event is
 * appended so streams of them end. Runs of this process (`owner`) are left alone: its own runs end
 * through its own code. Runs of `forcedFrom`, a live process whose lease `local.force` just took,
 * are asked to cancel instead (their heartbeat sees it and sees the lost lease, and they end
 * `cancelled`). The conversation is repaired when it is next loaded (unanswered tool calls get
 * aborted results), from the checkpoint the run saved at its last step.
 */
export async function recoverInterruptedRuns(
  store: AgentStore,
  agent: AgentRecord,
  owner: string,
  exceptRunId?: string,
  forcedFrom?: AgentLease,
  /** Runs the caller continues instead (a run that waited for approval): return true to leave it running. */
  adopt?: (run: RunRecord) => boolean,
): Promise<number> {
  const current = await store.agents.get(agent.agentId);
  const lease = current?.lease;
  if (lease && lease.owner !== owner && !leaseIsStale(lease)) return 0;
  let closed = 0;
  const asked = new Set<string>();
  const adopted = new Set<string>();
  for (;;) {
    const page = await store.runs.list(agent.agentId, { status: 'running', limit: 100 });
    // Background runs belong to their queue: a worker resumes them after a crash (background-run.ts).
    const others = page.items.filter((run) => run.runId !== exceptRunId && run.owner !== owner && !asked.has(run.runId) && !backgroundRunInfo(run));
    for (const run of others) {
      if (adopt?.(run)) {
        asked.add(run.runId);
        adopted.add(run.runId);
      } else if (forcedFrom && run.owner === forcedFrom.owner) {
        asked.add(run.runId);
        await store.runs.update(run.runId, { metadata: { ...(run.metadata ?? {}), cancelRequested: true } });
      } else {
        await closeRun(store, run, 'error', interruptedError);
        closed++;
      }
    }
    if (others.length === 0 || !page.nextCursor) break;
  }
  // Wait for the forced runs to end, so their last conversation checkpoint lands before the new
  // run loads it; a process that does not react before its old lease would have expired is stuck
  // or dead, and its runs are closed here.
  for (const runId of asked) {
    if (adopted.has(runId)) continue;
    for (;;) {
      const run = await store.runs.get(runId);
      if (!run || run.status !== 'running') break;
      if (Date.now() >= (forcedFrom as AgentLease).expiresAt) {
        await closeRun(store, run, 'cancelled', { message: 'The run was cancelled: another process took the agent over with local.force.', code: 'cancelled' });
        closed++;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return closed;
}
