/** A lease this store instance acquired: the holder it wrote and the fence the row had then. */
export interface HeldFence {
  runId: string;
  owner: string;
  fence: number;
  /** Set when a fenced write found the fence moved: every later write for the agent fails at once. */
  lost: boolean;
}

/** How many run → agent lookups to remember (a run's agent never changes, so entries never go stale). */
const runAgentCacheSize = 10_000;

/**
 * The fences one store instance holds, by agent, and which agent each run belongs to. Only the
 * instance that acquired a lease fences its writes: another process writing to the same agent
 * (a canceller, an approver) holds no fence and is not checked.
 */
export class FenceBook {
  readonly #held = new Map<string, HeldFence>();
  readonly #runAgents = new Map<string, string>();

  get size(): number {
    return this.#held.size;
  }

  get(agentId: string): HeldFence | undefined {
    return this.#held.get(agentId);
  }

  /** The live fence of an agent (undefined when not held, or lost). */
  fenceOf(agentId: string): number | undefined {
    const held = this.#held.get(agentId);
    return held === undefined || held.lost ? undefined : held.fence;
  }

  hold(agentId: string, runId: string, owner: string, fence: number): void {
    this.#held.set(agentId, { runId, owner, fence, lost: false });
    this.rememberRun(runId, agentId);
  }

  /** Forget the agent's fence (its lease was released by this instance, or handed to another holder). */
  drop(agentId: string): void {
    this.#held.delete(agentId);
  }

  /**
   * Mark a fence lost, unless the entry was replaced meanwhile (a newer acquire by this instance).
   * The entry stays, so a retried write cannot slip through unfenced; release or acquire clears it.
   */
  markLost(agentId: string, fence: number): void {
    const held = this.#held.get(agentId);
    if (held !== undefined && held.fence === fence) held.lost = true;
  }

  /** The agent whose held lease is for `runId`, if any. */
  agentHoldingRun(runId: string): string | undefined {
    for (const [agentId, held] of this.#held) if (held.runId === runId) return agentId;
    return undefined;
  }

  knownAgentOfRun(runId: string): string | undefined {
    return this.#runAgents.get(runId);
  }

  rememberRun(runId: string, agentId: string): void {
    if (this.#runAgents.size >= runAgentCacheSize && !this.#runAgents.has(runId)) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.#runAgents.keys().next().value;
      if (oldest !== undefined) this.#runAgents.delete(oldest);
    }
    this.#runAgents.set(runId, agentId);
  }
}
