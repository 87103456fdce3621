import type { ApprovalDecidedUpdate, ApprovalRequestedUpdate } from '@cairn/core';
import type { CairnApprovalData } from './cairn-data.js';
import { dataChunk } from './data-chunks.js';
import type { UIChunk } from './ui-chunks.js';

/** What the runtime records for a request still open when its run ends (see the run's finish). */
const runEndedDecision = { approved: false, reason: 'the run ended before it was answered', by: 'run-ended' };

/** One `data-cairn-approval` part per call id: the request, then the same part with its answer. */
export class ApprovalParts {
  private readonly approvals = new Map<string, CairnApprovalData>();

  requested(update: ApprovalRequestedUpdate): UIChunk[] {
    const { type: _type, callId, ...request } = update;
    return this.put({ callId, status: 'pending', request });
  }

  decided(update: ApprovalDecidedUpdate): UIChunk[] {
    const decision = { approved: update.approved, ...(update.reason ? { reason: update.reason } : {}), ...(update.by ? { by: update.by } : {}) };
    const request = this.approvals.get(update.callId)?.request;
    return this.put({ callId: update.callId, status: update.approved ? 'approved' : 'denied', ...(request ? { request } : {}), decision });
  }

  /** The requests nobody answered: the runtime denies them when the run ends, without an update in the log. */
  settleAtRunEnd(): UIChunk[] {
    const pending = [...this.approvals.values()].filter((approval) => approval.status === 'pending');
    return pending.flatMap((approval) => this.put({ ...approval, status: 'denied', decision: runEndedDecision }));
  }

  private put(approval: CairnApprovalData): UIChunk[] {
    this.approvals.set(approval.callId, approval);
    return [dataChunk('cairn-approval', approval.callId, approval)];
  }
}
