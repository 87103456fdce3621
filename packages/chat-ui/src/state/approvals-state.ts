import type { ApprovalRecord, ApprovalRequestedUpdate } from '../wire-types.js';
import { replaceItem, toolIndex, withToolStatus } from './items.js';
import type { ApprovalView, RunViewState } from './run-view-types.js';

function setApproval(state: RunViewState, view: ApprovalView): RunViewState {
  const index = state.approvals.findIndex((approval) => approval.callId === view.callId);
  const approvals = state.approvals.slice();
  if (index === -1) approvals.push(view);
  else approvals[index] = view;
  return { ...state, approvals };
}

/** The tool row of a tool approval follows it: waiting while pending, running once answered. */
function markTool(state: RunViewState, view: ApprovalView): RunViewState {
  if (view.kind !== 'tool') return state;
  const index = toolIndex(state, view.callId);
  const item = state.items[index];
  if (item?.kind !== 'tool') return state;
  const next = withToolStatus(item, view.status === 'pending' ? 'awaiting-approval' : 'running');
  return next === item ? state : replaceItem(state, index, next);
}

/** A plan approval's answer is the plan's fate. */
function markPlan(state: RunViewState, view: ApprovalView): RunViewState {
  if (view.kind !== 'plan' || view.status === 'pending' || !state.plan) return state;
  const plan = { ...state.plan, decision: view.status === 'approved' ? ('approved' as const) : ('rejected' as const) };
  return { ...state, plan, items: state.items.map((item) => (item.kind === 'plan' ? { ...item, plan } : item)) };
}

function apply(state: RunViewState, view: ApprovalView): RunViewState {
  return markPlan(markTool(setApproval(state, view), view), view);
}

export function approvalRequested(state: RunViewState, update: ApprovalRequestedUpdate): RunViewState {
  // A request is decided once; seeing it again (replay, a REST answer first) never reopens it.
  if (state.approvals.some((approval) => approval.callId === update.callId && approval.status !== 'pending')) return state;
  const { type: _type, ...request } = update;
  return apply(state, { ...request, status: 'pending' });
}

export function approvalDecided(state: RunViewState, decided: { callId: string; approved: boolean; reason?: string; by?: string }): RunViewState {
  const current = state.approvals.find((approval) => approval.callId === decided.callId);
  if (current && current.status !== 'pending') return state;
  const decision = { approved: decided.approved, ...(decided.reason ? { reason: decided.reason } : {}), ...(decided.by ? { by: decided.by } : {}) };
  const base: ApprovalView = current ?? { callId: decided.callId, kind: 'tool', reason: '', status: 'pending' };
  return apply(state, { ...base, status: decided.approved ? 'approved' : 'denied', decision });
}

/** Records from `GET .../approvals` or an answer: new ones are added, decided ones close pending ones. */
export function approvalRecords(state: RunViewState, records: ApprovalRecord[]): RunViewState {
  let next = state;
  for (const record of records) {
    const { runId: _run, agentId: _agent, createdAt: _created, decidedAt: _decided, status, decision, ...request } = record;
    next = approvalRequested(next, { type: 'approval-requested', ...request });
    if (status !== 'pending') next = approvalDecided(next, { callId: record.callId, approved: status === 'approved', ...decision });
  }
  return next;
}

/** The run ended: whatever still waits was denied by the runtime (`run-ended`), without an update. */
export function closePendingApprovals(state: RunViewState): RunViewState {
  let next = state;
  for (const approval of state.approvals) {
    if (approval.status === 'pending') next = approvalDecided(next, { callId: approval.callId, approved: false, reason: 'the run ended before it was answered', by: 'run-ended' });
  }
  return next;
}
