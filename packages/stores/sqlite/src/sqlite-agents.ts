import type { AgentRecord, AgentsStore, LeaseResult } from '@cairn/core';
import type Database from 'better-sqlite3';
import { withBusyRetry } from './busy-retry.js';
import { decodeListCursor, encodeListCursor, normalizeListLimit } from '@cairn/core';
import { notFoundError } from './store-errors.js';

interface AgentRow {
  agent_id: string;
  cwd: string;
  created_at: number;
  updated_at: number;
  archived: number;
  checkpoint_root: string | null;
  lease_run_id: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  record: string;
}

// Columns hold what is filtered, sorted or changed atomically (the lease); `record` holds the rest.
function toRow(record: AgentRecord): AgentRow {
  const { agentId, cwd, createdAt, updatedAt, archived, checkpointRoot, lease, ...rest } = record;
  return {
    agent_id: agentId,
    cwd,
    created_at: createdAt,
    updated_at: updatedAt,
    archived: archived ? 1 : 0,
    checkpoint_root: checkpointRoot ?? null,
    lease_run_id: lease?.runId ?? null,
    lease_owner: lease?.owner ?? null,
    lease_expires_at: lease?.expiresAt ?? null,
    record: JSON.stringify(rest),
  };
}

function fromRow(row: AgentRow): AgentRecord {
  return {
    ...(JSON.parse(row.record) as Omit<AgentRecord, 'agentId'>),
    agentId: row.agent_id,
    cwd: row.cwd,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived: row.archived === 1,
    checkpointRoot: row.checkpoint_root,
    lease:
      row.lease_run_id === null
        ? null
        : { runId: row.lease_run_id, owner: row.lease_owner as string, expiresAt: row.lease_expires_at as number },
  };
}

const columns = 'agent_id, cwd, created_at, updated_at, archived, checkpoint_root, lease_run_id, lease_owner, lease_expires_at, record';
const upsertSql = `INSERT OR REPLACE INTO agents (${columns}) VALUES (@agent_id, @cwd, @created_at, @updated_at, @archived, @checkpoint_root, @lease_run_id, @lease_owner, @lease_expires_at, @record)`;
const selectOneSql = 'SELECT * FROM agents WHERE agent_id = ?';

/**
 * `agents.update`'s read-modify-write, to run inside the caller's transaction (IMMEDIATE, so a
 * lease change by another process between the read and the write cannot be lost).
 */
/** A patch of exactly a checkpoint root (or null) and an update time. */
function movesPointerOnly(patch: Partial<AgentRecord>): patch is { checkpointRoot: string | null; updatedAt: number } {
  const keys = Object.keys(patch);
  return keys.length === 2 && (typeof patch.checkpointRoot === 'string' || patch.checkpointRoot === null) && typeof patch.updatedAt === 'number';
}

export function prepareAgentUpdate(database: Database.Database): (agentId: string, patch: Partial<AgentRecord>) => AgentRecord {
  const upsert = database.prepare(upsertSql);
  const selectOne = database.prepare<[string], AgentRow>(selectOneSql);
  // The frequent update (a checkpoint pointer, a mode, a timestamp) rewrites the row in place; the
  // listing indexes (cwd, created_at) are only rewritten when one of their columns changes. A
  // REPLACE would delete and re-insert the row and every index entry: several pages of WAL per step.
  const updateInPlace = database.prepare(
    `UPDATE agents SET updated_at = @updated_at, archived = @archived, checkpoint_root = @checkpoint_root, lease_run_id = @lease_run_id,
     lease_owner = @lease_owner, lease_expires_at = @lease_expires_at, record = @record WHERE agent_id = @agent_id`,
  );
  // A checkpoint save's patch (the pointer and the time) touches two columns and not the record's
  // JSON: one statement, no read-merge-serialise of the record.
  const movePointer = database.prepare<{ agent_id: string; checkpoint_root: string | null; updated_at: number }, AgentRow>(
    'UPDATE agents SET checkpoint_root = @checkpoint_root, updated_at = @updated_at WHERE agent_id = @agent_id RETURNING *',
  );
  return (agentId, patch) => {
    if (movesPointerOnly(patch)) {
      const moved = movePointer.get({ agent_id: agentId, checkpoint_root: patch.checkpointRoot, updated_at: patch.updatedAt });
      if (moved === undefined) throw notFoundError('agent', agentId);
      return fromRow(moved);
    }
    const row = selectOne.get(agentId);
    if (row === undefined) throw notFoundError('agent', agentId);
    const updated = JSON.parse(JSON.stringify({ ...fromRow(row), ...patch, agentId })) as AgentRecord;
    const next = toRow(updated);
    if (next.cwd === row.cwd && next.created_at === row.created_at) updateInPlace.run(next);
    else upsert.run(next);
    return updated;
  };
}

export function createSqliteAgentsStore(database: Database.Database, path: string): AgentsStore {
  const upsert = database.prepare(upsertSql);
  const selectOne = database.prepare<[string], AgentRow>(selectOneSql);
  const deleteOne = database.prepare('DELETE FROM agents WHERE agent_id = ?');
  const takeLease = database.prepare(
    `UPDATE agents SET lease_run_id = @runId, lease_owner = @owner, lease_expires_at = @expiresAt
     WHERE agent_id = @agentId AND (@force = 1 OR lease_run_id IS NULL OR lease_expires_at <= @now OR (lease_run_id = @runId AND lease_owner = @owner))`,
  );
  const renew = database.prepare('UPDATE agents SET lease_expires_at = ? WHERE agent_id = ? AND lease_run_id = ?');
  const release = database.prepare(
    'UPDATE agents SET lease_run_id = NULL, lease_owner = NULL, lease_expires_at = NULL WHERE agent_id = ? AND lease_run_id = ?',
  );

  const update = database.transaction(prepareAgentUpdate(database)).immediate.bind(null);

  // The UPDATE is the atomic step; reading the holder in the same transaction makes the answer consistent.
  const acquire = database
    .transaction((agentId: string, parameters: Record<string, string | number>): LeaseResult => {
      if (takeLease.run({ agentId, ...parameters }).changes === 1) return { acquired: true };
      const row = selectOne.get(agentId);
      if (row === undefined) throw notFoundError('agent', agentId);
      return { acquired: false, holder: fromRow(row).lease as NonNullable<AgentRecord['lease']> };
    })
    .immediate.bind(null);

  // A listing has a few shapes (filters present or not, first page or not): each is prepared once.
  const listStatements = new Map<string, Database.Statement<Array<string | number>, AgentRow>>();
  const listStatement = (sql: string) => {
    let statement = listStatements.get(sql);
    if (!statement) listStatements.set(sql, (statement = database.prepare<Array<string | number>, AgentRow>(sql)));
    return statement;
  };

  return {
    put: (record) => withBusyRetry(path, () => void upsert.run(toRow(record))),
    get: (agentId) =>
      withBusyRetry(path, () => {
        const row = selectOne.get(agentId);
        return row === undefined ? undefined : fromRow(row);
      }),
    update: (agentId, patch) => withBusyRetry(path, () => update(agentId, patch)),
    list: (options = {}) =>
      withBusyRetry(path, () => {
        const limit = normalizeListLimit(options.limit);
        const after = options.cursor === undefined ? undefined : decodeListCursor(options.cursor);
        const conditions: string[] = [];
        const parameters: Array<string | number> = [];
        if (options.cwd !== undefined) {
          conditions.push('cwd = ?');
          parameters.push(options.cwd);
        }
        if (options.includeArchived !== true) conditions.push('archived = 0');
        if (after !== undefined) {
          conditions.push('(created_at < ? OR (created_at = ? AND agent_id < ?))');
          parameters.push(after[0], after[0], after[1]);
        }
        const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
        const rows = listStatement(`SELECT * FROM agents ${where} ORDER BY created_at DESC, agent_id DESC LIMIT ?`).all(...parameters, limit + 1);
        const items = rows.slice(0, limit).map(fromRow);
        const last = items.at(-1);
        return rows.length > limit && last !== undefined
          ? { items, nextCursor: encodeListCursor([last.createdAt, last.agentId]) }
          : { items };
      }),
    delete: (agentId) => withBusyRetry(path, () => void deleteOne.run(agentId)),
    acquireLease: (agentId, lease, options = {}) =>
      withBusyRetry(path, () =>
        acquire(agentId, {
          runId: lease.runId,
          owner: lease.owner,
          expiresAt: lease.expiresAt,
          force: options.force === true ? 1 : 0,
          now: options.now ?? Date.now(),
        }),
      ),
    renewLease: (agentId, runId, expiresAt) => withBusyRetry(path, () => renew.run(expiresAt, agentId, runId).changes === 1),
    releaseLease: (agentId, runId) => withBusyRetry(path, () => void release.run(agentId, runId)),
  };
}
