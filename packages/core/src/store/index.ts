export { assertBlobHash, hashBlob, isBlobHash } from './blob-hash.js';
export { calledOnOtherParts, commitCheckpointInParts, commitStepInParts, putCheckpointBlobs, stepCalledOnOtherParts } from './checkpoint-commit.js';
export { type ComposeStoreParts, composeStore } from './compose-store.js';
export { canTakeLease } from './lease-rules.js';
export {
  compareListKeys, decodeListCursor, defaultListLimit, encodeListCursor, type ListSortKey, maxListLimit, normalizeListLimit,
} from './list-cursor.js';
export { createMemoryStore } from './memory-store.js';
export { createMemoryApprovalsStore } from './memory-approvals.js';
export {
  type ApprovalFilter, approvalMatches, checkApprovalDecision, checkApprovalFilter, checkApprovalRequests, compareApprovals, decidedApproval,
} from './approval-rules.js';
export { normalizeEventListOptions } from './memory-run-events.js';
export { type ComposeLocalAgentStoreParts, composeLocalAgentStore } from './compose-local-agent-store.js';
export { assertAgentStore, missingStoreMethods, optionalSubstoreMethods } from './store-shape.js';
export { alreadyExistsError, invalidArgumentError, notFoundError } from './store-errors.js';
