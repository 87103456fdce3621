import type { AgentLease, AgentsStore, LeaseResult } from '@cairn/core';
import { invalidArgumentError, notFoundError } from './errors.js';
import { checkLease, fenceBumpSql } from './pg-agent-rows.js';
import { deadlineSql, type PgContext, remainingMs } from './sql.js';

type Leases = Pick<AgentsStore, 'acquireLease' | 'renewLease' | 'releaseLease'>;

/**
 * One conditional UPDATE takes the lease, atomic across processes: concurrent takers queue on
 * the row lock and each re-checks the condition on the row the previous one committed. The lease
 * is free when nobody holds it, when forced, when its holder (same run AND same owner) takes it
 * again (its fence stays), or when it expired: on the caller's timeline when `now` is given
 * (`lease_expires_at <= now`), else on the database clock (`lease_deadline <= clock_timestamp()`),
 * so a worker whose clock runs ahead can neither steal a live lease nor keep an expired one.
 */
function acquireSql(ctx: PgContext): string {
  return `UPDATE ${ctx.tables.agents} AS a SET
      lease_fence = ${fenceBumpSql('a', '$2::text', '$3::text')},
      lease_run_id = $2, lease_owner = $3, lease_expires_at = $4, lease_deadline = ${deadlineSql('$5')}
    WHERE agent_id = $1 AND (
      $6::boolean OR lease_run_id IS NULL
      OR (lease_run_id = $2 AND lease_owner = $3)
      OR CASE WHEN $7::bigint IS NULL THEN lease_deadline IS NULL OR lease_deadline <= clock_timestamp() ELSE lease_expires_at <= $7::bigint END
    )
    RETURNING lease_fence`;
}

function checkNow(now: unknown): void {
  if (now !== undefined && !Number.isSafeInteger(now)) throw invalidArgumentError(`Invalid lease option now ${String(now)}: use whole milliseconds since the epoch.`);
}

export function createPgLeases(ctx: PgContext): Leases {
  const acquire = acquireSql(ctx);
  const holderSql = `SELECT lease_run_id, lease_owner, lease_expires_at FROM ${ctx.tables.agents} WHERE agent_id = $1`;

  /** The holder that refused us; null when the lease was released between our UPDATE and this read. */
  const holderOf = async (agentId: string): Promise<AgentLease | null> => {
    const { rows } = await ctx.pool.query<{ lease_run_id: string | null; lease_owner: string; lease_expires_at: string }>(holderSql, [agentId]);
    const row = rows[0];
    if (row === undefined) throw notFoundError('agent', agentId);
    return row.lease_run_id === null ? null : { runId: row.lease_run_id, owner: row.lease_owner, expiresAt: Number(row.lease_expires_at) };
  };

  return {
    async acquireLease(agentId, lease, options = {}): Promise<LeaseResult> {
      checkLease(lease);
      checkNow(options.now);
      const values = [agentId, lease.runId, lease.owner, lease.expiresAt, remainingMs(lease.expiresAt, options.now ?? Date.now()), options.force === true, options.now ?? null];
      // A refusal reads the holder in a second statement; if it let go meanwhile, try again.
      for (;;) {
        const { rows } = await ctx.pool.query<{ lease_fence: string }>(acquire, values);
        if (rows[0] !== undefined) {
          ctx.fences.hold(agentId, lease.runId, lease.owner, Number(rows[0].lease_fence));
          return { acquired: true };
        }
        const holder = await holderOf(agentId);
        if (holder !== null) return { acquired: false, holder };
      }
    },

    async renewLease(agentId, runId, expiresAt) {
      if (!Number.isSafeInteger(expiresAt)) throw invalidArgumentError(`Invalid lease expiresAt ${String(expiresAt)}: use whole milliseconds since the epoch.`);
      const held = ctx.fences.get(agentId);
      // With a fence held, only that very holding renews: a worker paused past a takeover of the same run gets false.
      const fence = held === undefined ? null : held.lost ? -1 : held.fence;
      const { rowCount } = await ctx.pool.query(
        `UPDATE ${ctx.tables.agents} SET lease_expires_at = $3, lease_deadline = ${deadlineSql('$4')}
         WHERE agent_id = $1 AND lease_run_id = $2 AND ($5::bigint IS NULL OR lease_fence = $5::bigint)`,
        [agentId, runId, expiresAt, remainingMs(expiresAt, Date.now()), fence],
      );
      if (rowCount === 1) return true;
      if (held !== undefined && held.runId === runId) ctx.fences.markLost(agentId, held.fence);
      return false;
    },

    async releaseLease(agentId, runId) {
      const held = ctx.fences.get(agentId);
      const fence = held === undefined || held.runId !== runId ? null : held.lost ? -1 : held.fence;
      // Releasing changes the holder, so the fence moves: a write still in flight from this holding fails.
      await ctx.pool.query(
        `UPDATE ${ctx.tables.agents} SET lease_run_id = NULL, lease_owner = NULL, lease_expires_at = NULL, lease_deadline = NULL, lease_fence = lease_fence + 1
         WHERE agent_id = $1 AND lease_run_id = $2 AND ($3::bigint IS NULL OR lease_fence = $3::bigint)`,
        [agentId, runId, fence],
      );
      if (held !== undefined && held.runId === runId) ctx.fences.drop(agentId);
    },
  };
}
