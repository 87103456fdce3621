import { AgentBusyError } from '../spec/errors/index.js';
import type { AgentRecord, AgentStore } from '../spec/store/v1/index.js';
import { acquireAgentLease, recoverInterruptedRuns } from './recovery.js';

/**
 * The lease one CairnAgent holds on its stored agent while sends are queued or running: taken by the
 * first send, renewed by a heartbeat during each run, released when the last queued send ends.
 * Turns of one agent must never interleave, across processes or within one.
 */
export class AgentLease {
  private runId: string | undefined;
  private releasing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: AgentStore,
    private readonly agentId: string,
    private readonly owner: string,
    private readonly ttlMs: number,
  ) {}

  /** Take the lease for `runId`; `force` takes it from a live holder. Closes runs a dead holder left open. */
  async acquire(runId: string, force: boolean, record: AgentRecord): Promise<void> {
    // A send that starts before the release finished waits for it.
    await this.releasing;
    // A holder that is a dead process of this host is taken over at once (see acquireAgentLease).
    const result = await acquireAgentLease(this.store, this.agentId, { runId, owner: this.owner, expiresAt: Date.now() + this.ttlMs }, force);
    // Also within one process: another CairnAgent of the same agent holds it.
    if (!result.acquired) throw new AgentBusyError(this.agentId, result.holder.runId);
    this.runId = runId;
    // A stale lease means a process died mid-run: close its runs before continuing.
    await recoverInterruptedRuns(this.store, record, this.owner, runId, 'forcedFrom' in result ? result.forcedFrom : undefined);
  }

  release(fallbackRunId: string): void {
    this.releasing = this.store.agents.releaseLease(this.agentId, this.runId ?? fallbackRunId).catch(() => undefined);
  }

  /**
   * Renew now and then every third of the TTL while `runId` runs (every second on a shared store, so
   * a cancel from another process lands quickly). Aborts `controller` when the lease was taken away
   * (another process used local.force) or the run's record asks for a cancel. Returns the stop function.
   */
  async keepAlive(runId: string, controller: AbortController): Promise<() => void> {
    const timer = setInterval(() => void this.beat(runId, controller), this.store.shared ? Math.min(1_000, this.ttlMs / 3) : this.ttlMs / 3);
    try {
      await this.store.agents.renewLease(this.agentId, this.runId ?? runId, Date.now() + this.ttlMs);
    } catch (error) {
      clearInterval(timer);
      throw error;
    }
    return () => clearInterval(timer);
  }

  private async beat(runId: string, controller: AbortController): Promise<void> {
    try {
      if (!(await this.store.agents.renewLease(this.agentId, this.runId ?? runId, Date.now() + this.ttlMs))) controller.abort();
      const current = await this.store.runs.get(runId);
      if (current?.metadata?.cancelRequested) controller.abort();
    } catch {
      // a failed heartbeat is retried at the next tick; the lease outlives two missed beats
    }
  }
}
