import type { RunRecord, RunsStore } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { decodeListCursor, encodeListCursor, normalizeListLimit } from '@cairn/core';
import { alreadyExistsError, notFoundError } from './store-errors.js';

interface RunRow {
  run_id: string;
  agent_id: string;
  status: string;
  created_at: number;
  record: string;
}

function toRow(record: RunRecord): RunRow {
  return { run_id: record.runId, agent_id: record.agentId, status: record.status, created_at: record.createdAt, record: JSON.stringify(record) };
}

/** A run row's read-modify-write, to be called inside a write transaction (an update's own, or `commitStep`'s). */
export function prepareRunUpdate(database: Database.Database): (runId: string, patch: Partial<RunRecord>) => RunRecord {
  const replace = database.prepare('UPDATE runs SET status = @status, created_at = @created_at, record = @record WHERE run_id = @run_id');
  // Without created_at in SET, the by-agent listing index is left alone (the common case: a status,
  // usage or result update).
  const replaceInPlace = database.prepare('UPDATE runs SET status = @status, record = @record WHERE run_id = @run_id');
  const selectOne = database.prepare<[string], RunRow>('SELECT * FROM runs WHERE run_id = ?');
  return (runId, patch) => {
    const row = selectOne.get(runId);
    if (row === undefined) throw notFoundError('run', runId);
    const updated = JSON.parse(JSON.stringify({ ...JSON.parse(row.record), ...patch, runId, agentId: row.agent_id })) as RunRecord;
    const next = toRow(updated);
    (next.created_at === row.created_at ? replaceInPlace : replace).run(next);
    return updated;
  };
}

export function createSqliteRunsStore(database: Database.Database, path: string): RunsStore {
  const insert = database.prepare('INSERT INTO runs (run_id, agent_id, status, created_at, record) VALUES (@run_id, @agent_id, @status, @created_at, @record)');
  const selectOne = database.prepare<[string], RunRow>('SELECT * FROM runs WHERE run_id = ?');
  const update = database.transaction(prepareRunUpdate(database)).immediate.bind(null);

  // A listing has a few shapes (filters present or not, first page or not): each is prepared once.
  const listStatements = new Map<string, Database.Statement<Array<string | number>, RunRow>>();
  const listStatement = (sql: string) => {
    let statement = listStatements.get(sql);
    if (!statement) listStatements.set(sql, (statement = database.prepare<Array<string | number>, RunRow>(sql)));
    return statement;
  };

  return {
    create: (record) =>
      withBusyRetry(path, () => {
        try {
          insert.run(toRow(record));
        } catch (error) {
          if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw alreadyExistsError('run', record.runId);
          throw error;
        }
      }),
    get: (runId) =>
      withBusyRetry(path, () => {
        const row = selectOne.get(runId);
        return row === undefined ? undefined : (JSON.parse(row.record) as RunRecord);
      }),
    update: (runId, patch) => withBusyRetry(path, () => update(runId, patch)),
    list: (agentId, options = {}) =>
      withBusyRetry(path, () => {
        const limit = normalizeListLimit(options.limit);
        const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
        const conditions = ['agent_id = ?'];
        const parameters: Array<string | number> = [agentId];
        if (options.status !== undefined) {
          conditions.push('status = ?');
          parameters.push(options.status);
        }
        if (after !== undefined) {
          conditions.push('(created_at < ? OR (created_at = ? AND run_id < ?))');
          parameters.push(after[0], after[0], after[1]);
        }
        const rows = listStatement(`SELECT * FROM runs WHERE ${conditions.join(' AND ')} ORDER BY created_at DESC, run_id DESC LIMIT ?`).all(...parameters, limit + 1);
        const items = rows.slice(0, limit).map((row) => JSON.parse(row.record) as RunRecord);
        const last = items.at(-1);
        return rows.length > limit && last !== undefined ? { items, nextCursor: encodeListCursor([last.createdAt, last.runId]) } : { items };
      }),
  };
}
