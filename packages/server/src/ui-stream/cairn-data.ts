import type {
  ApprovalRequestedUpdate, ModeChangedUpdate, ModelSelection, NestedTaskUpdate, RunStatus, SDKStatusPhase, SensitiveFileChangedUpdate,
  TodosUpdatedUpdate, TokenUsage, UsageCost, WarningUpdate,
} from '@cairn/core';

// The payloads of the `data-cairn-*` parts: what a run says that the protocol has no part for.
// Keyed by the part name without `data-`, the shape `UIMessage<Metadata, CairnDataTypes>` takes.

/** `data-cairn-run` (id `run`): the run's opening facts. */
export interface CairnRunData {
  runId: string;
  agentId: string;
  model?: ModelSelection;
  tools?: string[];
  mode?: string;
  cwd?: string;
}

/** `data-cairn-status` (id `status`): the run's latest status. */
export interface CairnStatusData {
  status: RunStatus;
  phase?: SDKStatusPhase;
  message?: string;
  mode?: string;
  error?: { message: string; code?: string };
}

/** `data-cairn-notice` (id `notice-<offset>`): something the user should know about the run's options. */
export interface CairnNoticeData {
  message: string;
}

/** `data-cairn-mode` (id `mode`): the mode the run is in, and where the last change came from. */
export interface CairnModeData {
  mode: string;
  from?: string;
  source?: ModeChangedUpdate['source'];
}

/** `data-cairn-todos` (id `todos`): the whole todo list after its last change. */
export interface CairnTodosData {
  todos: TodosUpdatedUpdate['todos'];
}

/** `data-cairn-plan` (id `plan`): the last plan `create_plan` proposed. */
export interface CairnPlanData {
  plan: unknown;
}

/** `data-cairn-approval` (id = the call id): a request for approval and, once given, its answer. */
export interface CairnApprovalData {
  callId: string;
  status: 'pending' | 'approved' | 'denied';
  /** Absent only when the log holds the answer but not the request. */
  request?: Omit<ApprovalRequestedUpdate, 'type' | 'callId'>;
  decision?: { approved: boolean; reason?: string; by?: string };
}

/** `data-cairn-usage` (id `usage`): the run's tokens so far; the cost once the run ended, when known. */
export interface CairnUsageData {
  usage: TokenUsage;
  cost?: UsageCost;
}

/** `data-cairn-task` (id = the `task` call id): a subagent's progress. */
export interface CairnTaskData {
  callId: string;
  status?: string;
  text?: string;
  subagentType?: string;
}

/** `data-cairn-compaction` (id `compaction-<n>`): one compaction of the conversation. */
export interface CairnCompactionData {
  status: 'started' | 'summarized' | 'completed';
  summary?: string;
  tokensBefore?: number;
  tokensAfter?: number;
}

/** `data-cairn-retry` (id `retry`): the last retried model call. */
export interface CairnRetryData {
  attempt: number;
  delayMs: number;
  reason: string;
}

/** `data-cairn-warning` (id `warning-<offset>`): something the run went on without. */
export type CairnWarningData = Omit<WarningUpdate, 'type'>;

/** `data-cairn-sensitive-file` (id `<callId>:<path>`): a change to a file that makes programs run code. */
export type CairnSensitiveFileData = Omit<SensitiveFileChangedUpdate, 'type'>;

/** `data-cairn-shell-output` (transient): a piece of a running command's output (`{ callId, stream, text }`). */
export type CairnShellOutputData = Record<string, unknown>;

/** `data-cairn-task-update` (transient): one update of a subagent, under its `task` call. */
export interface CairnTaskUpdateData {
  callId: string;
  update: NestedTaskUpdate;
}

/** `data-cairn-tokens` (transient): a live count of generated tokens. */
export interface CairnTokensData {
  tokens: number;
}

// A type, not an interface: the AI SDK's `UIMessage<Metadata, DataTypes>` needs an index-compatible record.
export type CairnDataTypes = {
  'cairn-run': CairnRunData;
  'cairn-status': CairnStatusData;
  'cairn-notice': CairnNoticeData;
  'cairn-mode': CairnModeData;
  'cairn-todos': CairnTodosData;
  'cairn-plan': CairnPlanData;
  'cairn-approval': CairnApprovalData;
  'cairn-usage': CairnUsageData;
  'cairn-task': CairnTaskData;
  'cairn-compaction': CairnCompactionData;
  'cairn-retry': CairnRetryData;
  'cairn-warning': CairnWarningData;
  'cairn-sensitive-file': CairnSensitiveFileData;
  'cairn-shell-output': CairnShellOutputData;
  'cairn-task-update': CairnTaskUpdateData;
  'cairn-tokens': CairnTokensData;
};

/** The `output` of a tool part whose call succeeded. */
export interface CairnToolOutput {
  /** The result as the model read it. */
  result: string;
  /** The tool's machine-readable result (a diff, a subagent's run), when it has one. */
  structuredContent?: unknown;
  /** The result was cut to fit the model's context. */
  truncated?: boolean;
}
