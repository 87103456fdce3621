import { type ApprovalDecision, type ApprovalRecord, type ApprovalsStore, checkApprovalDecision, checkApprovalFilter, checkApprovalRequests } from '@cairn/core';
import { fencedWrite } from './fenced-write.js';
import type { PgContext } from './sql.js';

interface ApprovalRow {
  run_id: string;
  call_id: string;
  agent_id: string;
  status: string;
  created_at: number;
  decided_at: number | null;
  decision: string | null;
  record: string;
}

const columns = 'run_id, call_id, agent_id, status, created_at, decided_at, decision, record';

// Columns hold the key, what is filtered and sorted, and what decide changes; `record` holds the
// request's other fields, written once.
function recordText(record: ApprovalRecord): string {
  const { runId, callId, agentId, status, createdAt, decision, decidedAt, ...rest } = record;
  return JSON.stringify(rest);
}

function fromRow(row: ApprovalRow): ApprovalRecord {
  const record: ApprovalRecord = {
    ...(JSON.parse(row.record) as Omit<ApprovalRecord, 'runId' | 'callId' | 'agentId' | 'status' | 'createdAt'>),
    runId: row.run_id,
    callId: row.call_id,
    agentId: row.agent_id,
    status: row.status as ApprovalRecord['status'],
    createdAt: row.created_at,
  };
  if (row.decision !== null) record.decision = JSON.parse(row.decision) as ApprovalDecision;
  if (row.decided_at !== null) record.decidedAt = row.decided_at;
  return record;
}

/**
 * The first record of each (runId, callId): request keeps the first, in the batch as in the table.
 * Sorted by key, so two batches sharing keys wait on each other in one order, never in a cycle.
 */
function firstOfEach(records: ApprovalRecord[]): ApprovalRecord[] {
  const seen = new Map<string, ApprovalRecord>();
  for (const record of records) {
    const key = JSON.stringify([record.runId, record.callId]);
    if (!seen.has(key)) seen.set(key, record);
  }
  return [...seen.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).map(([, record]) => record);
}

export function createPgApprovalsStore(ctx: PgContext): ApprovalsStore {
  const t = ctx.tables.approvals;
  const selectOne = `SELECT ${columns} FROM ${t} WHERE run_id = $1 AND call_id = $2`;
  return {
    async request(records) {
      checkApprovalRequests(records);
      const rows = firstOfEach(records);
      if (rows.length === 0) return;
      const array = (pick: (record: ApprovalRecord) => unknown) => rows.map(pick);
      // DO NOTHING on the key only: a record already there, pending or decided, is kept as is.
      // Fenced for the agents whose lease this instance holds: a run that lost its lease asks nothing more.
      await fencedWrite(ctx, [...new Set(rows.map((record) => record.agentId))], 'share', (db) =>
        db.query(
          `INSERT INTO ${t} (run_id, call_id, agent_id, status, created_at, record)
           SELECT run_id, call_id, agent_id, status, created_at, record
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::text[]) WITH ORDINALITY AS r(run_id, call_id, agent_id, status, created_at, record, n)
           ORDER BY n ON CONFLICT (run_id, call_id) DO NOTHING`,
          [array((r) => r.runId), array((r) => r.callId), array((r) => r.agentId), array((r) => r.status), array((r) => r.createdAt), array(recordText)],
        ),
      );
    },
    async get(runId, callId) {
      const { rows } = await ctx.pool.query<ApprovalRow>(selectOne, [runId, callId]);
      return rows[0] === undefined ? undefined : fromRow(rows[0]);
    },
    async list(filter) {
      checkApprovalFilter(filter);
      const conditions: string[] = [];
      const values: string[] = [];
      for (const [column, value] of [['run_id', filter?.runId], ['agent_id', filter?.agentId], ['status', filter?.status]] as const) {
        if (value !== undefined) conditions.push(`${column} = $${values.push(value)}`);
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const { rows } = await ctx.pool.query<ApprovalRow>(`SELECT ${columns} FROM ${t} ${where} ORDER BY created_at, call_id, run_id`, values);
      return rows.map(fromRow);
    },
    // Not fenced: answering is the approver's write, and the first answer wins whoever gives it.
    async decide(runId, callId, decision, now) {
      checkApprovalDecision(decision, now);
      // One statement decides: concurrent deciders queue on the row lock, and each after the first
      // re-checks `status = 'pending'` on the committed row and changes nothing.
      const { rows } = await ctx.pool.query<ApprovalRow>(
        `UPDATE ${t} SET status = $3, decision = $4, decided_at = $5 WHERE run_id = $1 AND call_id = $2 AND status = 'pending' RETURNING ${columns}`,
        [runId, callId, decision.approved ? 'approved' : 'denied', JSON.stringify(decision), now ?? Date.now()],
      );
      if (rows[0] !== undefined) return fromRow(rows[0]);
      const { rows: current } = await ctx.pool.query<ApprovalRow>(selectOne, [runId, callId]);
      return current[0] === undefined ? undefined : fromRow(current[0]);
    },
  };
}
