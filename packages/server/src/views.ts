import type { ApprovalRecord } from '@cairn/core';
import type { Run } from '@cairn/core/node';

/** A run as the API shows it: the SDK's fields, and how many requests it waits on. */
export interface RunView {
  id: string;
  agentId: string;
  requestId: string;
  status: Run['status'];
  mode: string;
  model: Run['model'];
  createdAt: number;
  result?: string;
  error?: Run['error'];
  usage?: Run['usage'];
  durationMs?: number;
  pendingApprovals: number;
}

export async function runView(run: Run): Promise<RunView> {
  const pending = run.status === 'running' ? (await run.pendingApprovals()).length : 0;
  return {
    id: run.id,
    agentId: run.agentId,
    requestId: run.requestId,
    status: run.status,
    mode: run.mode,
    model: run.model,
    createdAt: run.createdAt,
    ...(run.result === undefined ? {} : { result: run.result }),
    ...(run.error === undefined ? {} : { error: run.error }),
    ...(run.usage === undefined ? {} : { usage: run.usage }),
    ...(run.durationMs === undefined ? {} : { durationMs: run.durationMs }),
    pendingApprovals: pending,
  };
}

/** Pending requests first (oldest first), then decided ones (latest decision first). */
export function orderApprovals(records: ApprovalRecord[]): ApprovalRecord[] {
  const pending = records.filter((record) => record.status === 'pending').sort((a, b) => a.createdAt - b.createdAt);
  const decided = records.filter((record) => record.status !== 'pending').sort((a, b) => (b.decidedAt ?? 0) - (a.decidedAt ?? 0));
  return [...pending, ...decided];
}
