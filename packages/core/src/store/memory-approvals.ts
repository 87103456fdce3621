import type { ApprovalRecord, ApprovalsStore } from '../spec/store/v1/approvals.js';
import { approvalMatches, checkApprovalDecision, checkApprovalFilter, checkApprovalRequests, compareApprovals, decidedApproval } from './approval-rules.js';
import { copyRecord } from './record-copy.js';

/** Approvals in a Map keyed by (runId, callId); records are copied in and out. */
export function createMemoryApprovalsStore(): ApprovalsStore {
  const approvals = new Map<string, ApprovalRecord>();
  const keyOf = (runId: string, callId: string) => JSON.stringify([runId, callId]);

  return {
    async request(records) {
      checkApprovalRequests(records);
      for (const record of records) {
        const key = keyOf(record.runId, record.callId);
        if (!approvals.has(key)) approvals.set(key, copyRecord(record));
      }
    },
    async get(runId, callId) {
      const record = approvals.get(keyOf(runId, callId));
      return record === undefined ? undefined : copyRecord(record);
    },
    async list(filter) {
      checkApprovalFilter(filter);
      return [...approvals.values()]
        .filter((record) => approvalMatches(record, filter))
        .sort(compareApprovals)
        .map((record) => copyRecord(record));
    },
    async decide(runId, callId, decision, now) {
      checkApprovalDecision(decision, now);
      const key = keyOf(runId, callId);
      const record = approvals.get(key);
      if (record === undefined) return undefined;
      // Checked and set with no await in between: the first answer wins.
      if (record.status === 'pending') approvals.set(key, copyRecord(decidedApproval(record, decision, now)));
      return copyRecord(approvals.get(key) as ApprovalRecord);
    },
  };
}
