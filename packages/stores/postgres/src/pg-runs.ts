import { decodeListCursor, encodeListCursor, normalizeListLimit, type RunRecord, type RunsStore } from '@cairn/core';
import { alreadyExistsError, notFoundError } from './errors.js';
import { checkFences, fencedAgentOfRun, fencedWrite } from './fenced-write.js';
import { isUniqueViolation, type PgContext, transaction } from './sql.js';

type RunPatch = Partial<Omit<RunRecord, 'runId' | 'agentId'>>;

/** The whole record is the `record` text; the columns beside it are what listing filters and sorts on. */
async function updateRun(ctx: PgContext, runId: string, patch: RunPatch): Promise<RunRecord> {
  // The agent's row is locked before the run's (as every fenced write does): one lock order.
  const fencedAgent = await fencedAgentOfRun(ctx, runId);
  return transaction(ctx.pool, async (client) => {
    if (fencedAgent !== undefined) await checkFences(client, ctx, [fencedAgent], 'share');
    const { rows } = await client.query<{ agent_id: string; record: string }>(`SELECT agent_id, record FROM ${ctx.tables.runs} WHERE run_id = $1 FOR UPDATE`, [runId]);
    const row = rows[0];
    if (row === undefined) throw notFoundError('run', runId);
    const updated = JSON.parse(JSON.stringify({ ...JSON.parse(row.record), ...patch, runId, agentId: row.agent_id })) as RunRecord;
    await client.query(`UPDATE ${ctx.tables.runs} SET status = $2, created_at = $3, record = $4 WHERE run_id = $1`, [
      runId,
      updated.status,
      updated.createdAt,
      JSON.stringify(updated),
    ]);
    return updated;
  });
}

async function listRuns(ctx: PgContext, agentId: string, options: Parameters<RunsStore['list']>[1] = {}) {
  const limit = normalizeListLimit(options.limit);
  const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
  const values: unknown[] = [agentId];
  const conditions = ['agent_id = $1'];
  if (options.status !== undefined) conditions.push(`status = $${values.push(options.status)}`);
  if (after !== undefined) conditions.push(`(created_at, run_id) < ($${values.push(after[0])}, $${values.push(after[1])})`);
  const { rows } = await ctx.pool.query<{ record: string }>(
    `SELECT record FROM ${ctx.tables.runs} WHERE ${conditions.join(' AND ')} ORDER BY created_at DESC, run_id DESC LIMIT $${values.push(limit + 1)}`,
    values,
  );
  const items = rows.slice(0, limit).map((row) => JSON.parse(row.record) as RunRecord);
  const last = items.at(-1);
  return rows.length > limit && last !== undefined ? { items, nextCursor: encodeListCursor([last.createdAt, last.runId]) } : { items };
}

export function createPgRunsStore(ctx: PgContext): RunsStore {
  return {
    async create(record) {
      const values = [record.runId, record.agentId, record.status, record.createdAt, JSON.stringify(record)];
      try {
        await fencedWrite(ctx, [record.agentId], 'share', (db) =>
          db.query(`INSERT INTO ${ctx.tables.runs} (run_id, agent_id, status, created_at, record) VALUES ($1, $2, $3, $4, $5)`, values),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyExistsError('run', record.runId);
        throw error;
      }
      ctx.fences.rememberRun(record.runId, record.agentId);
    },
    async get(runId) {
      const { rows } = await ctx.pool.query<{ record: string }>(`SELECT record FROM ${ctx.tables.runs} WHERE run_id = $1`, [runId]);
      return rows[0] === undefined ? undefined : (JSON.parse(rows[0].record) as RunRecord);
    },
    update: (runId, patch) => updateRun(ctx, runId, patch),
    list: (agentId, options) => listRuns(ctx, agentId, options),
  };
}
