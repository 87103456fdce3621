import type { RunEvent, RunStatus } from '../../events/v1/events.js';
import type { TokenUsage } from '../../events/v1/usage.js';
import type { JSONObject } from '../../json.js';
import type { ModelSelection } from '../../provider/v1/provider.js';
import type { ApprovalsStore } from './approvals.js';

export interface ListOptions {
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface ListResult<T> {
  items: T[];
  /** Present when there are more items. */
  nextCursor?: string;
}

/** Which run holds an agent, from which process, until when (renewed by a heartbeat). */
export interface AgentLease {
  runId: string;
  owner: string;
  expiresAt: number;
}

/** The slim agent row: the conversation itself lives in checkpoint blobs under `checkpointRoot`. */
export interface AgentRecord {
  agentId: string;
  cwd: string;
  model: ModelSelection;
  mode: string;
  name?: string;
  createdAt: number;
  updatedAt: number;
  archived: boolean;
  /** Hash of the newest conversation checkpoint root blob; null before the first run. */
  checkpointRoot: string | null;
  lease: AgentLease | null;
  metadata?: JSONObject;
  /** Set on a subagent: the agent, run and `task` tool call that started it (docs/subagents.md). */
  parentAgentId?: string;
  parentRunId?: string;
  parentToolCallId?: string;
  /** The subagent type the `task` call named (`explore`, `generalPurpose`, a name from `agents`). */
  subagentType?: string;
}

export type LeaseResult = { acquired: true } | { acquired: false; holder: AgentLease };

export interface AgentsStore {
  /** Create or replace a record. */
  put(record: AgentRecord): Promise<void>;
  get(agentId: string): Promise<AgentRecord | undefined>;
  /** Apply a patch; throws when the agent does not exist. Returns the updated record. */
  update(agentId: string, patch: Partial<Omit<AgentRecord, 'agentId'>>): Promise<AgentRecord>;
  /** Newest first (by createdAt, then agentId). */
  list(options?: ListOptions & { cwd?: string; includeArchived?: boolean }): Promise<ListResult<AgentRecord>>;
  delete(agentId: string): Promise<void>;
  /**
   * Atomically take the agent's lease when it is free, expired (at `now`), or `force` is set.
   * Must be atomic across processes for stores shared by several processes.
   */
  acquireLease(agentId: string, lease: AgentLease, options?: { force?: boolean; now?: number }): Promise<LeaseResult>;
  /** Extend the lease held by `runId`; false when it is no longer held by it. */
  renewLease(agentId: string, runId: string, expiresAt: number): Promise<boolean>;
  /** Release the lease when `runId` still holds it. */
  releaseLease(agentId: string, runId: string): Promise<void>;
}

/** One content-addressed blob to store: `hash` is the SHA-256 hex of `data`. */
export interface CheckpointBlob {
  hash: string;
  data: Uint8Array;
}

/** Content-addressed blobs: the key is the SHA-256 hex of the bytes. Never rewritten. */
export interface CheckpointStore {
  putBlob(hash: string, data: Uint8Array): Promise<void>;
  getBlob(hash: string): Promise<Uint8Array | undefined>;
  hasBlob(hash: string): Promise<boolean>;
  /**
   * Optional: store several blobs at once, each as `putBlob` would (a hash already stored is left
   * alone), in one transaction where the backend has them. Checkpoint saves use it when present.
   */
  putBlobs?(blobs: ReadonlyArray<CheckpointBlob>): Promise<void>;
}

/** One file change of a run: content lives in checkpoint blobs; null = the file did not exist. */
export interface FileChangeRecord {
  /** Relative to the agent's cwd, with `/` separators. */
  path: string;
  beforeHash: string | null;
  afterHash: string | null;
  /** Size of the content after the change, in bytes (absent on records written before it was kept). */
  afterSizeBytes?: number;
  toolCallId: string;
  at: number;
}

export interface RunRecord {
  runId: string;
  agentId: string;
  requestId: string;
  status: RunStatus;
  mode: string;
  /** The concrete model the run used (`provider/model`; the router's choice for `auto-smart`). */
  model: string;
  /** The params of the selection the run was sent with (`optimize_for` for the router). */
  modelParams?: ModelSelection['params'];
  prompt: string;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  durationMs?: number;
  result?: string;
  error?: { message: string; code: string };
  usage?: TokenUsage;
  /** Conversation root before this run (rewind target) and after it. */
  checkpointBefore: string | null;
  checkpointAfter?: string | null;
  fileChanges?: FileChangeRecord[];
  /** Process that executes the run (for crash recovery). */
  owner?: string;
  /** Branches a background run pushed (a run on a git workspace, docs/background-agents.md). */
  git?: RunGitInfo;
  metadata?: JSONObject;
}

/** Where a run's changes went: the branch it pushed, per repository (the reference's RunGitInfo). */
export interface RunGitInfo {
  branches: Array<{ repoUrl: string; branch?: string; prUrl?: string }>;
}

export interface RunsStore {
  create(record: RunRecord): Promise<void>;
  get(runId: string): Promise<RunRecord | undefined>;
  update(runId: string, patch: Partial<Omit<RunRecord, 'runId' | 'agentId'>>): Promise<RunRecord>;
  /** Newest first. */
  list(agentId: string, options?: ListOptions & { status?: RunStatus }): Promise<ListResult<RunRecord>>;
}

export interface StoredRunEvent {
  /** 1-based, dense, increasing per run. */
  offset: number;
  event: RunEvent;
}

export interface RunEventsStore {
  /** Append in order; returns the offset of the last appended event. */
  append(runId: string, events: RunEvent[]): Promise<{ lastOffset: number }>;
  /** Events with offset > afterOffset (default 0), oldest first. `nextOffset` is the afterOffset for the next page. */
  list(runId: string, options?: { afterOffset?: number; limit?: number }): Promise<{ events: StoredRunEvent[]; nextOffset: number }>;
  /**
   * Optional: resolve when the run's log may have events past `afterOffset` (another process
   * appended, or the store lost and regained its notification channel), or after `timeoutMs`, or
   * when `signal` aborts. A hint, never a promise of new events: readers list again after it.
   * Readers of a run executed elsewhere wait on it instead of polling (Postgres: LISTEN/NOTIFY).
   */
  waitForAppend?(runId: string, afterOffset: number, options: { timeoutMs: number; signal?: AbortSignal }): Promise<void>;
}

/** One step's writes for `AgentStore.commitStep`: a checkpoint save and the run's new events. */
export interface StepCommit {
  agentId: string;
  /** Stored as `checkpoints.putBlobs` would. */
  blobs: ReadonlyArray<CheckpointBlob>;
  /** Applied to the agent row as `agents.update` would (moves `checkpointRoot`). */
  agentPatch: Partial<Omit<AgentRecord, 'agentId'>>;
  runId: string;
  /** Appended to the run's log as `runEvents.append` would, after its last event; may be empty. */
  events: ReadonlyArray<RunEvent>;
  /** Applied to the run's row as `runs.update` would (the turn's usage), when given. */
  runPatch?: Partial<Omit<RunRecord, 'runId' | 'agentId'>>;
}

export interface StepCommitResult {
  /** The updated agent row. */
  agent: AgentRecord;
  /** The run log's last offset after the append (as `runEvents.append` returns it). */
  lastOffset: number;
  /** The updated run row, when a `runPatch` was given. */
  run?: RunRecord;
}

/** A complete store: four small interfaces (and optional approvals), which `composeStore` can take from different backends. */
export interface AgentStore {
  agents: AgentsStore;
  checkpoints: CheckpointStore;
  runs: RunsStore;
  runEvents: RunEventsStore;
  /**
   * Pending and answered approval requests. Optional so a store written to the reference SDK's
   * four-part shape still type-checks; without it approvals only live in the process that runs
   * the agent (they cannot be answered from elsewhere, nor survive a restart).
   */
  approvals?: ApprovalsStore;
  /**
   * Optional: one checkpoint save as one transaction. Stores `blobs` (as `checkpoints.putBlobs`
   * would) and applies `patch` to the agent row (as `agents.update` would, returning the updated
   * record): after a crash both are there or neither. Checkpoint saves use it when present (the
   * patch moves `checkpointRoot` to a root among `blobs`); without it they call `putBlobs` (or
   * `putBlob`), then `agents.update`. Only for a store whose `agents` and `checkpoints` are one
   * backend: `composeStore` leaves it out, and called (as a method) on a copy whose `agents` or
   * `checkpoints` were replaced, it must make those two calls on the copy's parts instead.
   */
  commitCheckpoint?(agentId: string, blobs: ReadonlyArray<CheckpointBlob>, patch: Partial<Omit<AgentRecord, 'agentId'>>): Promise<AgentRecord>;
  /**
   * Optional: a checkpoint save together with the run events written since the last write, as one
   * transaction: `commitCheckpoint(agentId, blobs, agentPatch)`, `runEvents.append(runId, events)`
   * (with `events` possibly empty) and, when given, `runs.update(runId, runPatch)`: all or none (a
   * missing run with a `runPatch` is `not_found` too). The runtime uses it for each step's saves when
   * present, so the step's pending events cost no transaction of their own; without it, it appends
   * the events and then commits the checkpoint. The same rules as `commitCheckpoint` (a bad hash or a
   * missing agent writes nothing); only for a store whose `agents`, `checkpoints` and `runEvents`
   * are one backend: `composeStore` leaves it out, and called on a copy whose parts were replaced it
   * must make the separate calls on the copy's parts instead.
   */
  commitStep?(step: StepCommit): Promise<StepCommitResult>;
  /** Whether other processes may share this store (then stream() tails the log by polling). */
  readonly shared?: boolean;
  close?(): Promise<void> | void;
}

// The reference SDK's names for the same shapes (its "Local agent stores" section), so a custom
// store written against those names type-checks unchanged. Aliases, not copies: one contract.
/** A complete local store: `agents`, `checkpoints`, `runs`, `runEvents`. */
export type LocalAgentStore = AgentStore;
/** Agent metadata rows, paged with an opaque `cursor` / `nextCursor`. */
export type LocalAgentStoreAgents = AgentsStore;
/** Content-addressed conversation blobs (the agent row points at its newest root). */
export type LocalAgentStoreCheckpoints = CheckpointStore;
/** One row per run, paged with an opaque `cursor` / `nextCursor`. */
export type LocalAgentStoreRuns = RunsStore;
/** The append-only run event log, resumed with an exclusive `afterOffset` / `nextOffset`. */
export type LocalAgentStoreRunEvents = RunEventsStore;
/** One agent row. */
export type LocalAgentDocument = AgentRecord;
/** One run row. */
export type LocalAgentRunDocument = RunRecord;
