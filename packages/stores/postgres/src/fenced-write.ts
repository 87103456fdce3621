import { LeaseLostError } from '@cairn/core';
import { type PgContext, type Queryable, transaction } from './sql.js';

/**
 * How a fenced write locks the agent row. SHARE for writes to other tables (events, runs,
 * approvals): a takeover's UPDATE of the row waits for them to commit, and several of them run
 * side by side. UPDATE for writes to the agent row itself, which would otherwise have to upgrade a
 * share lock (two such writes at once would deadlock).
 */
export type FenceLock = 'share' | 'update';

/**
 * Inside a transaction: for each agent this instance holds a fence for, lock its row and compare
 * the fence. A moved fence (another holder took the lease) marks it lost and throws
 * LeaseLostError, rolling the caller's transaction back. Agents are locked in sorted order.
 */
export async function checkFences(client: Queryable, ctx: PgContext, agentIds: Iterable<string>, lock: FenceLock): Promise<void> {
  for (const agentId of [...new Set(agentIds)].sort()) {
    const held = ctx.fences.get(agentId);
    if (held === undefined) continue;
    if (held.lost) throw new LeaseLostError(agentId, held.runId);
    const { rows } = await client.query<{ lease_fence: string }>(
      `SELECT lease_fence FROM ${ctx.tables.agents} WHERE agent_id = $1 FOR ${lock === 'share' ? 'SHARE' : 'UPDATE'}`,
      [agentId],
    );
    if (rows[0] === undefined || Number(rows[0].lease_fence) !== held.fence) {
      ctx.fences.markLost(agentId, held.fence);
      throw new LeaseLostError(agentId, held.runId);
    }
  }
}

/** Throws LeaseLostError when a single-statement fenced write found its fence moved. */
export function leaseLost(ctx: PgContext, agentId: string, fence: number): never {
  ctx.fences.markLost(agentId, fence);
  throw new LeaseLostError(agentId, ctx.fences.get(agentId)?.runId ?? '');
}

/**
 * The agent whose fence a write to `runId` must check, or undefined when this instance holds no
 * fence for the run's agent. Asks the runs table only when this instance holds some fence and the
 * run is neither the leased one nor seen before; a run's agent never changes, so it is remembered.
 */
export async function fencedAgentOfRun(ctx: PgContext, runId: string): Promise<string | undefined> {
  if (ctx.fences.size === 0) return undefined;
  let agentId = ctx.fences.agentHoldingRun(runId) ?? ctx.fences.knownAgentOfRun(runId);
  if (agentId === undefined) {
    const { rows } = await ctx.pool.query<{ agent_id: string }>(`SELECT agent_id FROM ${ctx.tables.runs} WHERE run_id = $1`, [runId]);
    agentId = rows[0]?.agent_id;
    if (agentId !== undefined) ctx.fences.rememberRun(runId, agentId);
  }
  return agentId !== undefined && ctx.fences.get(agentId) !== undefined ? agentId : undefined;
}

/**
 * A write touching rows of `agentIds`: one autocommit statement when this instance holds no fence
 * for any of them, else a transaction that checks the fences first.
 */
export function fencedWrite<T>(ctx: PgContext, agentIds: string[], lock: FenceLock, work: (db: Queryable) => Promise<T>): Promise<T> {
  if (!agentIds.some((agentId) => ctx.fences.get(agentId) !== undefined)) return work(ctx.pool);
  return transaction(ctx.pool, async (client) => {
    await checkFences(client, ctx, agentIds, lock);
    return work(client);
  });
}
