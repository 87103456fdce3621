import type { ApprovalDecision, ApprovalRecord, ApprovalStatus } from '@cairn/core';
import { invalidArgumentError } from './store-errors.js';

// A copy of core's store/approval-rules.ts: a store package imports only core's root entry, which
// does not export it (the other argument checks are copied the same way). The shared conformance
// suite (runStoreConformance) holds every copy to the same behaviour.

const approvalKinds = new Set(['tool', 'mode-switch', 'plan']);

/** Refuses what `request` cannot store faithfully, naming the record and the field. */
export function checkApprovalRequests(records: unknown): asserts records is ApprovalRecord[] {
  if (!Array.isArray(records)) throw invalidArgumentError('approvals.request takes an array of approval records.');
  records.forEach((record: Partial<ApprovalRecord> | null, index) => {
    const where = `approvals.request: record ${index}`;
    if (typeof record !== 'object' || record === null) throw invalidArgumentError(`${where} is not an object.`);
    for (const field of ['runId', 'agentId', 'callId'] as const) {
      if (typeof record[field] !== 'string' || record[field] === '') throw invalidArgumentError(`${where} needs ${field} as a non-empty string.`);
    }
    if (!approvalKinds.has(record.kind as string)) throw invalidArgumentError(`${where} has kind ${JSON.stringify(record.kind)}; use 'tool', 'mode-switch' or 'plan'.`);
    if (typeof record.reason !== 'string') throw invalidArgumentError(`${where} needs reason as a string (why approval is needed).`);
    if (typeof record.createdAt !== 'number' || !Number.isFinite(record.createdAt)) throw invalidArgumentError(`${where} needs createdAt as a number (milliseconds since the epoch).`);
    if (record.status !== 'pending' || record.decision !== undefined || record.decidedAt !== undefined) {
      throw invalidArgumentError(`${where} is not pending: request stores pending requests only (status 'pending', no decision); answer one with approvals.decide.`);
    }
  });
}

/** Refuses a decision that does not say yes or no, and a `now` that is not a time. */
export function checkApprovalDecision(decision: unknown, now: unknown): asserts decision is ApprovalDecision {
  const given = decision as Partial<ApprovalDecision> | null;
  if (typeof given !== 'object' || given === null || typeof given.approved !== 'boolean') {
    throw invalidArgumentError('approvals.decide needs a decision { approved: true | false, reason?, by? }.');
  }
  for (const field of ['reason', 'by'] as const) {
    if (given[field] !== undefined && typeof given[field] !== 'string') throw invalidArgumentError(`approvals.decide: decision.${field} must be a string when given.`);
  }
  if (now !== undefined && (typeof now !== 'number' || !Number.isFinite(now))) throw invalidArgumentError('approvals.decide: now must be a number (milliseconds since the epoch) when given.');
}

/** The record once answered: the status follows the decision; decidedAt defaults to the current time. */
export function decidedApproval(record: ApprovalRecord, decision: ApprovalDecision, now: number = Date.now()): ApprovalRecord {
  const status: ApprovalStatus = decision.approved ? 'approved' : 'denied';
  return { ...record, status, decision: { ...decision }, decidedAt: now };
}

/** List order: oldest first by createdAt, then callId, then runId (so equal keys of two runs still sort one way). */
export function compareApprovals(left: ApprovalRecord, right: ApprovalRecord): number {
  if (left.createdAt !== right.createdAt) return left.createdAt - right.createdAt;
  if (left.callId !== right.callId) return left.callId < right.callId ? -1 : 1;
  return left.runId < right.runId ? -1 : left.runId > right.runId ? 1 : 0;
}

export interface ApprovalFilter {
  runId?: string;
  agentId?: string;
  status?: ApprovalStatus;
}

const filterKeys = new Set(['runId', 'agentId', 'status']);
const statuses = new Set(['pending', 'approved', 'denied']);

/** Refuses a filter with a field `list` does not know (a typo would otherwise list everything). */
export function checkApprovalFilter(filter: unknown): asserts filter is ApprovalFilter | undefined {
  if (filter === undefined) return;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw invalidArgumentError('approvals.list takes an optional filter { runId?, agentId?, status? }.');
  const unknown = Object.keys(filter).filter((key) => !filterKeys.has(key));
  if (unknown.length > 0) throw invalidArgumentError(`approvals.list does not know the filter field ${unknown.map((key) => `"${key}"`).join(', ')}; use runId, agentId or status.`);
  const { runId, agentId, status } = filter as Record<string, unknown>;
  for (const [field, value] of [['runId', runId], ['agentId', agentId]] as const) {
    if (value !== undefined && typeof value !== 'string') throw invalidArgumentError(`approvals.list: ${field} must be a string when given.`);
  }
  if (status !== undefined && !statuses.has(status as string)) throw invalidArgumentError(`approvals.list: status ${JSON.stringify(status)} is not one of 'pending', 'approved', 'denied'.`);
}

export function approvalMatches(record: ApprovalRecord, filter: ApprovalFilter = {}): boolean {
  return (
    (filter.runId === undefined || record.runId === filter.runId) &&
    (filter.agentId === undefined || record.agentId === filter.agentId) &&
    (filter.status === undefined || record.status === filter.status)
  );
}
