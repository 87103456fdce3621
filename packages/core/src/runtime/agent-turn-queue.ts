import type { AgentRecord, AgentStore } from '../spec/store/v1/index.js';
import { AgentLease } from './agent-lease.js';
import type { AgentRuntime } from './agent-runtime.js';

/**
 * The sends of one stored agent within one Cairn instance, whichever `CairnAgent` handle they come
 * from: they run one after another behind one lease. Two handles of the same agent in one process
 * therefore queue (as the reference SDK's local runtime does) instead of failing with AgentBusyError,
 * which stays the answer for a run held by another process.
 */
export class AgentTurnQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private leasing: Promise<void> = Promise.resolve();
  /** Controllers of runs queued or running: `local.force` aborts them all. */
  private readonly inFlight = new Set<AbortController>();

  constructor(readonly lease: AgentLease) {}

  /** Wait until this send may be queued: the lease is held (sends made while it is being taken share the outcome). */
  async admit(runId: string, force: boolean, record: AgentRecord): Promise<void> {
    if (force) for (const earlier of this.inFlight) earlier.abort();
    if (this.pending === 0) this.leasing = this.lease.acquire(runId, force, record);
    this.pending++;
    try {
      await this.leasing;
    } catch (error) {
      this.pending--;
      throw error;
    }
  }

  /**
   * Run `work` after every send queued before it. The bookkeeping (and the lease release after the
   * last one) happens before the returned promise settles, so a caller that sees its run end and
   * sends again is never counted as still queued behind it.
   */
  enqueue<T>(runId: string, controller: AbortController, work: () => Promise<T>): Promise<T> {
    this.inFlight.add(controller);
    const previous = this.tail;
    const result = (async () => {
      await previous;
      try {
        return await work();
      } finally {
        this.inFlight.delete(controller);
        this.pending--;
        if (this.pending === 0) this.lease.release(runId);
      }
    })();
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves when every send queued so far has ended. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}

const queues = new WeakMap<AgentStore, Map<string, AgentTurnQueue>>();

/** The queue of `agentId` in `store` for this Cairn instance (its lease owner). */
export function agentTurnQueue(runtime: AgentRuntime, store: AgentStore, agentId: string): AgentTurnQueue {
  let byAgent = queues.get(store);
  if (!byAgent) queues.set(store, (byAgent = new Map()));
  const key = `${runtime.owner}\u0000${agentId}`;
  let queue = byAgent.get(key);
  if (!queue) byAgent.set(key, (queue = new AgentTurnQueue(new AgentLease(store, agentId, runtime.owner, runtime.leaseTtlMs))));
  return queue;
}
