import { join } from 'node:path';
import type { ApprovalDecision, ApprovalRecord, ApprovalsStore } from '@cairn/core';
import type { LogLine } from './append-log.js';
import { approvalMatches, checkApprovalDecision, checkApprovalFilter, checkApprovalRequests, compareApprovals, decidedApproval } from '@cairn/core';
import type { JsonlWarning } from './jsonl-state.js';
import { jsonCopy } from './record-copy.js';
import { SharedAppendLog } from './shared-append-log.js';
import { storeClosedError } from './store-errors.js';

export const approvalsFileName = 'approvals.ndjson';

/** The lines of approvals.ndjson. Per (runId, callId), the first request and the first answer in file order count. */
type ApprovalLine =
  | { type: 'approval-requested'; record: ApprovalRecord }
  | { type: 'approval-decided'; runId: string; callId: string; decision: ApprovalDecision; decidedAt: number };

export interface JsonlApprovalsStore extends ApprovalsStore {
  /** Closes the file; later calls fail with `store_closed`. */
  close(): Promise<void>;
}

/**
 * Approvals in their own append-only file, shared by every process that opens the folder: unlike
 * the other files they take no `.lock`, and every call first reads what other processes appended.
 * The file order decides races: the first answer line wins, in every process's reading.
 */
export function createJsonlApprovalsStore(dir: string, report: (warning: JsonlWarning) => void): JsonlApprovalsStore {
  const log = new SharedAppendLog(join(dir, approvalsFileName));
  const known = new Map<string, ApprovalRecord>();
  const keyOf = (runId: string, callId: string) => JSON.stringify([runId, callId]);
  // One call at a time per store object, so reading the file and applying it never interleave.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const apply = (line: LogLine) => {
    // Checked field by field below: the file may hold anything a crash or a hand edit left.
    let entry: Record<string, any> | null;
    try {
      entry = JSON.parse(line.text);
    } catch {
      report({ file: approvalsFileName, line: line.lineNumber, message: 'unreadable record skipped (torn by a crash)' });
      return;
    }
    if (entry?.type === 'approval-requested' && typeof entry.record?.runId === 'string' && typeof entry.record?.callId === 'string') {
      const key = keyOf(entry.record.runId, entry.record.callId);
      if (!known.has(key)) known.set(key, entry.record);
    } else if (
      entry?.type === 'approval-decided' && typeof entry.runId === 'string' && typeof entry.callId === 'string' &&
      typeof entry.decision?.approved === 'boolean' && typeof entry.decidedAt === 'number'
    ) {
      const key = keyOf(entry.runId, entry.callId);
      const record = known.get(key);
      if (record === undefined) report({ file: approvalsFileName, line: line.lineNumber, message: 'answer to a request that is not in the file skipped' });
      else if (record.status === 'pending') known.set(key, decidedApproval(record, entry.decision, entry.decidedAt));
    } else {
      report({ file: approvalsFileName, line: line.lineNumber, message: 'not an approval record' });
    }
  };

  const catchUp = async () => {
    for (const line of await log.readNew()) apply(line);
  };

  const exclusive = <T>(operation: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(storeClosedError(dir));
    const result = queue.then(async () => {
      await catchUp();
      return operation();
    });
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    async request(records) {
      checkApprovalRequests(records);
      const requested = records.map(jsonCopy);
      return exclusive(async () => {
        // Only ids not in the file yet (nor twice in this batch): a request already there is kept as is.
        const fresh = new Map<string, ApprovalRecord>();
        for (const record of requested) {
          const key = keyOf(record.runId, record.callId);
          if (!known.has(key) && !fresh.has(key)) fresh.set(key, record);
        }
        await log.append([...fresh.values()].map((record) => JSON.stringify({ type: 'approval-requested', record } satisfies ApprovalLine)));
        await catchUp();
      });
    },
    get: (runId, callId) =>
      exclusive(async () => {
        const record = known.get(keyOf(runId, callId));
        return record === undefined ? undefined : jsonCopy(record);
      }),
    async list(filter) {
      checkApprovalFilter(filter);
      return exclusive(async () => [...known.values()].filter((record) => approvalMatches(record, filter)).sort(compareApprovals).map(jsonCopy));
    },
    async decide(runId, callId, decision, now) {
      checkApprovalDecision(decision, now);
      const line: ApprovalLine = { type: 'approval-decided', runId, callId, decision: jsonCopy(decision), decidedAt: now ?? Date.now() };
      return exclusive(async () => {
        const key = keyOf(runId, callId);
        if (known.get(key)?.status === 'pending') {
          await log.append([JSON.stringify(line)]);
          // Reading up to our own line applies every answer written before it: the first one wins.
          await catchUp();
        }
        const record = known.get(key);
        return record === undefined ? undefined : jsonCopy(record);
      });
    },
    async close() {
      closed = true;
      await queue;
      await log.close();
    },
  };
}
