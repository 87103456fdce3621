import type { ApprovalDecision, ApprovalRecord, ApprovalsStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { checkApprovalDecision, checkApprovalFilter, checkApprovalRequests } from '@cairn/core';
import { withBusyRetry } from './busy-retry.js';

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

// Columns hold the key, what is filtered and sorted, and what decide changes; `record` holds the
// request's other fields, written once.
function toRow(record: ApprovalRecord): ApprovalRow {
  const { runId, callId, agentId, status, createdAt, decision, decidedAt, ...rest } = record;
  return {
    run_id: runId,
    call_id: callId,
    agent_id: agentId,
    status,
    created_at: createdAt,
    decided_at: decidedAt ?? null,
    decision: decision === undefined ? null : JSON.stringify(decision),
    record: JSON.stringify(rest),
  };
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

export function createSqliteApprovalsStore(database: Database.Database, path: string): ApprovalsStore {
  const columns = 'run_id, call_id, agent_id, status, created_at, decided_at, decision, record';
  // DO NOTHING on the key only: a record already there, pending or decided, is kept as is.
  const insert = database.prepare(
    `INSERT INTO approvals (${columns}) VALUES (@run_id, @call_id, @agent_id, @status, @created_at, @decided_at, @decision, @record)
     ON CONFLICT (run_id, call_id) DO NOTHING`,
  );
  const selectOne = database.prepare<[string, string], ApprovalRow>('SELECT * FROM approvals WHERE run_id = ? AND call_id = ?');
  // One statement decides: whichever process's UPDATE runs first under the write lock changes the
  // row; every later one finds it no longer pending and changes nothing.
  const answer = database.prepare(
    `UPDATE approvals SET status = @status, decision = @decision, decided_at = @decided_at
     WHERE run_id = @run_id AND call_id = @call_id AND status = 'pending'`,
  );
  const requestAll = database.transaction((rows: ApprovalRow[]) => {
    for (const row of rows) insert.run(row);
  }).immediate;

  return {
    async request(records) {
      checkApprovalRequests(records);
      const rows = records.map(toRow);
      await withBusyRetry(path, () => requestAll(rows));
    },
    get: (runId, callId) =>
      withBusyRetry(path, () => {
        const row = selectOne.get(runId, callId);
        return row === undefined ? undefined : fromRow(row);
      }),
    async list(filter) {
      checkApprovalFilter(filter);
      const conditions: string[] = [];
      const parameters: string[] = [];
      for (const [column, value] of [['run_id', filter?.runId], ['agent_id', filter?.agentId], ['status', filter?.status]] as const) {
        if (value === undefined) continue;
        conditions.push(`${column} = ?`);
        parameters.push(value);
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      return withBusyRetry(path, () =>
        database
          .prepare<string[], ApprovalRow>(`SELECT * FROM approvals ${where} ORDER BY created_at, call_id, run_id`)
          .all(...parameters)
          .map(fromRow),
      );
    },
    async decide(runId, callId, decision, now) {
      checkApprovalDecision(decision, now);
      const answered = { run_id: runId, call_id: callId, status: decision.approved ? 'approved' : 'denied', decision: JSON.stringify(decision), decided_at: now ?? Date.now() };
      return withBusyRetry(path, () => {
        answer.run(answered);
        // Read after the update: the row carries the winning answer, ours or an earlier one.
        const row = selectOne.get(runId, callId);
        return row === undefined ? undefined : fromRow(row);
      });
    },
  };
}
