export type { ApprovalDecision, ApprovalKind, ApprovalRecord, ApprovalStatus, ApprovalsStore } from './approvals.js';
export type {
  AgentLease, AgentRecord, AgentStore, AgentsStore, CheckpointBlob, CheckpointStore, FileChangeRecord, LeaseResult, ListOptions, ListResult,
  RunEventsStore, RunGitInfo, RunRecord, RunsStore, StepCommit, StepCommitResult, StoredRunEvent,
} from './store.js';
export type {
  LocalAgentDocument, LocalAgentRunDocument, LocalAgentStore, LocalAgentStoreAgents, LocalAgentStoreCheckpoints, LocalAgentStoreRunEvents,
  LocalAgentStoreRuns,
} from './store.js';
