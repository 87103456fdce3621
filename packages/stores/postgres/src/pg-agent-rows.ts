import type { AgentLease, AgentRecord } from '@cairn/core';
import { invalidArgumentError } from './errors.js';
import { remainingMs } from './sql.js';

export interface AgentRow {
  agent_id: string;
  cwd: string;
  created_at: number;
  updated_at: number;
  archived: boolean;
  checkpoint_root: string | null;
  lease_run_id: string | null;
  lease_owner: string | null;
  /** bigint: pg returns it as a string. */
  lease_expires_at: string | null;
  record: string;
}

export const agentColumns = 'agent_id, cwd, created_at, updated_at, archived, checkpoint_root, lease_run_id, lease_owner, lease_expires_at, record';

/** A lease the store can keep exactly: expiresAt is stored as bigint milliseconds. */
export function checkLease(lease: AgentLease): void {
  if (typeof lease?.runId !== 'string' || lease.runId === '' || typeof lease.owner !== 'string' || lease.owner === '') {
    throw invalidArgumentError('A lease needs runId and owner as non-empty strings.');
  }
  if (!Number.isSafeInteger(lease.expiresAt)) {
    throw invalidArgumentError(`Invalid lease expiresAt ${String(lease.expiresAt)}: use whole milliseconds since the epoch (Date.now() + ttl).`);
  }
}

export function fromRow(row: AgentRow): AgentRecord {
  return {
    ...(JSON.parse(row.record) as Omit<AgentRecord, 'agentId'>),
    agentId: row.agent_id,
    cwd: row.cwd,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archived: row.archived,
    checkpointRoot: row.checkpoint_root,
    lease:
      row.lease_run_id === null
        ? null
        : { runId: row.lease_run_id, owner: row.lease_owner as string, expiresAt: Number(row.lease_expires_at) },
  };
}

/** What an agent record writes to its row. */
export interface AgentRowValues {
  agentId: string;
  cwd: string;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  checkpointRoot: string | null;
  leaseRunId: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** The lease's remaining time as the writer counts it, for its deadline on the database clock. */
  leaseRemainingMs: number | null;
  record: string;
}

/** Columns hold what is filtered, sorted or changed atomically (the lease); `record` holds the rest. */
export function rowValues(agent: AgentRecord): AgentRowValues {
  const { agentId, cwd, createdAt, updatedAt, archived, checkpointRoot, lease, ...rest } = agent;
  if (lease) checkLease(lease);
  return {
    agentId,
    cwd,
    createdAt,
    updatedAt,
    archived: archived === true,
    checkpointRoot: checkpointRoot ?? null,
    leaseRunId: lease?.runId ?? null,
    leaseOwner: lease?.owner ?? null,
    leaseExpiresAt: lease?.expiresAt ?? null,
    leaseRemainingMs: lease ? remainingMs(lease.expiresAt, Date.now()) : null,
    record: JSON.stringify(rest),
  };
}

/** Parameters $1…$11 of a full row write, in the order `putSql` and the lease-naming update use. */
export const fullRowParameters = (v: AgentRowValues): unknown[] => [
  v.agentId, v.cwd, v.createdAt, v.updatedAt, v.archived, v.checkpointRoot, v.leaseRunId, v.leaseOwner, v.leaseExpiresAt, v.leaseRemainingMs, v.record,
];

/** The fence grows whenever the holder (run, owner) changes: `old` is the row before, `next` the values written. */
export const fenceBumpSql = (old: string, nextRun: string, nextOwner: string) =>
  `${old}.lease_fence + CASE WHEN (${old}.lease_run_id, ${old}.lease_owner) IS NOT DISTINCT FROM (${nextRun}, ${nextOwner}) THEN 0 ELSE 1 END`;
