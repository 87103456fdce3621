import type { JSONValue } from '../../json.js';

/** What a person is asked to approve: one tool call, a mode switch, or a plan to execute. */
export type ApprovalKind = 'tool' | 'mode-switch' | 'plan';

/** A request starts `pending` and is decided exactly once. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied';

export interface ApprovalDecision {
  approved: boolean;
  /** Shown to the model when denied (and recorded either way). */
  reason?: string;
  /** Who answered: 'sdk' (run.approve), 'canUseTool', 'approveModeSwitch', 'timeout', 'run-ended', or a caller's label. */
  by?: string;
}

/** One request for approval, kept by the store so any process sharing it can answer, even after a restart. */
export interface ApprovalRecord {
  runId: string;
  agentId: string;
  /** The tool call id for kind 'tool'; a runtime-made id (`mode-switch-<n>`) for the others. Unique within a run. */
  callId: string;
  kind: ApprovalKind;
  toolName?: string;
  args?: JSONValue;
  /** Why approval is needed, e.g. "the command matches an ask rule (shell(git push*))". */
  reason: string;
  rule?: string;
  modeSwitch?: { from: string; to: string; explanation: string; addedRights: string[]; plan?: JSONValue };
  status: ApprovalStatus;
  decision?: ApprovalDecision;
  createdAt: number;
  decidedAt?: number;
}

export interface ApprovalsStore {
  /** Record pending requests. Idempotent per (runId, callId): an existing record (pending or decided) is kept as is. */
  request(records: ApprovalRecord[]): Promise<void>;
  get(runId: string, callId: string): Promise<ApprovalRecord | undefined>;
  /** Oldest first (createdAt, then callId). Every filter field is optional; all given ones must match. */
  list(filter?: { runId?: string; agentId?: string; status?: ApprovalStatus }): Promise<ApprovalRecord[]>;
  /**
   * Answer a pending request. Atomic across processes sharing the store: the first answer wins, later ones
   * change nothing. Returns the record after the call (carrying the winning decision), or undefined when there
   * is no such request.
   */
  decide(runId: string, callId: string, decision: ApprovalDecision, now?: number): Promise<ApprovalRecord | undefined>;
}
