import { type AgentRecord, type AgentsStore, decodeListCursor, encodeListCursor, normalizeListLimit } from '@cairn/core';
import { notFoundError } from './errors.js';
import { checkFences, fencedWrite } from './fenced-write.js';
import { type AgentRow, agentColumns, fenceBumpSql, fromRow, fullRowParameters, rowValues } from './pg-agent-rows.js';
import { createPgLeases } from './pg-leases.js';
import { deadlineSql, type PgContext, type Queryable, transaction } from './sql.js';

type AgentPatch = Partial<Omit<AgentRecord, 'agentId'>>;

/** After this instance wrote a lease itself (put, update): keep its fence when it is still the holder, else forget it. */
function syncHeldFence(ctx: PgContext, agentId: string, lease: AgentRecord['lease'], fence: string): void {
  const held = ctx.fences.get(agentId);
  if (held === undefined || held.lost) return;
  if (lease && lease.runId === held.runId && lease.owner === held.owner) ctx.fences.hold(agentId, held.runId, held.owner, Number(fence));
  else ctx.fences.drop(agentId);
}

function putSql(ctx: PgContext): string {
  const set = ['cwd', 'created_at', 'updated_at', 'archived', 'checkpoint_root', 'lease_run_id', 'lease_owner', 'lease_expires_at', 'lease_deadline', 'record'];
  return `INSERT INTO ${ctx.tables.agents} AS a (agent_id, ${set.join(', ')})
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $7::text IS NULL THEN NULL ELSE ${deadlineSql('$10')} END, $11)
    ON CONFLICT (agent_id) DO UPDATE SET ${set.map((column) => `${column} = excluded.${column}`).join(', ')},
      lease_fence = ${fenceBumpSql('a', 'excluded.lease_run_id', 'excluded.lease_owner')}
    RETURNING lease_fence`;
}

/**
 * `agents.update`'s read-modify-write inside the caller's transaction: the row is locked FOR
 * UPDATE, so a lease change by another process between the read and the write cannot be lost.
 * The lease columns are only written when the patch names `lease`.
 */
export async function updateAgentRow(client: Queryable, ctx: PgContext, agentId: string, patch: AgentPatch): Promise<AgentRecord> {
  await checkFences(client, ctx, [agentId], 'update');
  const { rows } = await client.query<AgentRow>(`SELECT ${agentColumns} FROM ${ctx.tables.agents} WHERE agent_id = $1 FOR UPDATE`, [agentId]);
  const row = rows[0];
  if (row === undefined) throw notFoundError('agent', agentId);
  const updated = JSON.parse(JSON.stringify({ ...fromRow(row), ...patch, agentId })) as AgentRecord;
  const v = rowValues(updated);
  if (!('lease' in patch)) {
    await client.query(
      `UPDATE ${ctx.tables.agents} SET cwd = $2, created_at = $3, updated_at = $4, archived = $5, checkpoint_root = $6, record = $7 WHERE agent_id = $1`,
      [agentId, v.cwd, v.createdAt, v.updatedAt, v.archived, v.checkpointRoot, v.record],
    );
    return updated;
  }
  const { rows: written } = await client.query<{ lease_fence: string }>(
    `UPDATE ${ctx.tables.agents} AS a SET cwd = $2, created_at = $3, updated_at = $4, archived = $5, checkpoint_root = $6,
       lease_fence = ${fenceBumpSql('a', '$7::text', '$8::text')}, lease_run_id = $7, lease_owner = $8, lease_expires_at = $9,
       lease_deadline = CASE WHEN $7::text IS NULL THEN NULL ELSE ${deadlineSql('$10')} END, record = $11
     WHERE agent_id = $1 RETURNING lease_fence`,
    fullRowParameters(v),
  );
  syncHeldFence(ctx, agentId, updated.lease, written[0]?.lease_fence ?? '0');
  return updated;
}

async function listAgents(ctx: PgContext, options: Parameters<AgentsStore['list']>[0] = {}) {
  const limit = normalizeListLimit(options.limit);
  const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (options.cwd !== undefined) conditions.push(`cwd = $${values.push(options.cwd)}`);
  if (options.includeArchived !== true) conditions.push('NOT archived');
  if (after !== undefined) conditions.push(`(created_at, agent_id) < ($${values.push(after[0])}, $${values.push(after[1])})`);
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const { rows } = await ctx.pool.query<AgentRow>(
    `SELECT ${agentColumns} FROM ${ctx.tables.agents} ${where} ORDER BY created_at DESC, agent_id DESC LIMIT $${values.push(limit + 1)}`,
    values,
  );
  const items = rows.slice(0, limit).map(fromRow);
  const last = items.at(-1);
  return rows.length > limit && last !== undefined ? { items, nextCursor: encodeListCursor([last.createdAt, last.agentId]) } : { items };
}

/** Agent rows and their leases. Writes on an agent whose lease this instance holds are fenced. */
export function createPgAgentsStore(ctx: PgContext): AgentsStore {
  const put = putSql(ctx);
  return {
    async put(record) {
      const values = fullRowParameters(rowValues(record));
      const { rows } = await fencedWrite(ctx, [record.agentId], 'update', (db) => db.query<{ lease_fence: string }>(put, values));
      syncHeldFence(ctx, record.agentId, record.lease, rows[0]?.lease_fence ?? '0');
    },
    async get(agentId) {
      const { rows } = await ctx.pool.query<AgentRow>(`SELECT ${agentColumns} FROM ${ctx.tables.agents} WHERE agent_id = $1`, [agentId]);
      return rows[0] === undefined ? undefined : fromRow(rows[0]);
    },
    update: (agentId, patch) => transaction(ctx.pool, (client) => updateAgentRow(client, ctx, agentId, patch)),
    list: (options) => listAgents(ctx, options),
    async delete(agentId) {
      await fencedWrite(ctx, [agentId], 'update', (db) => db.query(`DELETE FROM ${ctx.tables.agents} WHERE agent_id = $1`, [agentId]));
    },
    ...createPgLeases(ctx),
  };
}
