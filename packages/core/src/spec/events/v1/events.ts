import type { ModelSelection } from '../../provider/v1/provider.js';
import type { TokenUsage } from './usage.js';

// The shapes of this file follow the reference agent SDK's local runtime field for field, so code
// written for it reads Cairn's streams unchanged. Cairn's additions are optional fields, or update
// types of their own that a `switch` on `type` passes over; documented fields are never renamed.

export type RunStatus = 'running' | 'finished' | 'error' | 'cancelled';

interface SDKMessageBase {
  agent_id: string;
  run_id: string;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export type AssistantContentBlock = TextBlock | ToolUseBlock;

export interface SDKSystemMessage extends SDKMessageBase {
  type: 'system';
  subtype?: 'init';
  model?: ModelSelection;
  tools?: string[];
  /** Cairn: the mode the run starts in. */
  mode?: string;
  /** Cairn: the canonical workspace root. */
  cwd?: string;
}

export interface SDKUserMessageEvent extends SDKMessageBase {
  type: 'user';
  message: { role: 'user'; content: TextBlock[] };
}

export interface SDKAssistantMessage extends SDKMessageBase {
  type: 'assistant';
  message: { role: 'assistant'; content: AssistantContentBlock[] };
  /** Cairn: the step ended early (cancel, stream error); its tool calls were not run. */
  incomplete?: boolean;
}

export interface SDKThinkingMessage extends SDKMessageBase {
  type: 'thinking';
  text: string;
  thinking_duration_ms?: number;
}

export interface SDKToolUseMessage extends SDKMessageBase {
  type: 'tool_call';
  call_id: string;
  name: string;
  status: 'running' | 'completed' | 'error';
  args?: unknown;
  /** The result as the model read it (text). */
  result?: unknown;
  truncated?: { args?: boolean; result?: boolean };
}

/** The reference SDK's lifecycle values; a local run is never `CREATING` or `EXPIRED`. */
export type SDKStatus = 'CREATING' | 'RUNNING' | 'FINISHED' | 'ERROR' | 'CANCELLED' | 'EXPIRED';

/** Cairn: what happened inside a `RUNNING` run when a status message reports it (`resumed`: a worker took over a background run a stopped one left). */
export type SDKStatusPhase = 'mode-changed' | 'retrying' | 'compacting' | 'awaiting-approval' | 'resumed';

export interface SDKStatusMessage extends SDKMessageBase {
  type: 'status';
  status: SDKStatus;
  message?: string;
  /** Cairn: set on `RUNNING` messages that report a mode change, a retry or a compaction. */
  phase?: SDKStatusPhase;
  /** Cairn: the run's mode after this message. */
  mode?: string;
  /** Cairn: on `ERROR` and `CANCELLED`, the run's error. */
  error?: { message: string; code: string };
}

export interface SDKTaskMessage extends SDKMessageBase {
  type: 'task';
  status?: string;
  text?: string;
  /** Cairn: the `task` tool call this message belongs to. */
  call_id?: string;
  subagent_type?: string;
}

export interface SDKRequestMessage extends SDKMessageBase {
  type: 'request';
  request_id: string;
}

export interface SDKUsageMessage extends SDKMessageBase {
  type: 'usage';
  usage: TokenUsage;
}

/** What `run.stream()` yields, discriminated on `type`. */
export type SDKMessage =
  | SDKSystemMessage
  | SDKUserMessageEvent
  | SDKAssistantMessage
  | SDKThinkingMessage
  | SDKToolUseMessage
  | SDKStatusMessage
  | SDKTaskMessage
  | SDKRequestMessage
  | SDKUsageMessage;

export type SDKMessageType = SDKMessage['type'];

/**
 * One tool call as updates and the conversation show it. The reference SDK keeps this shape
 * internal; Cairn's: `type` is the tool id (`read`, `edit`, `shell`, a custom tool's name), `name`
 * the model-facing name.
 */
export interface ToolCall {
  type: string;
  name: string;
  /** Cairn: the call's id (the model's tool call id). */
  callId?: string;
  /** The parsed arguments (the raw text when they are not valid JSON). */
  args?: unknown;
  /** The argument text streamed so far (partial calls only). */
  argsText?: string;
  status?: 'running' | 'completed' | 'error';
  /** The result as the model read it. */
  result?: string;
  isError?: boolean;
  truncated?: { args?: boolean; result?: boolean };
  /** The tool's machine-readable result (a custom tool's object result or envelope `structuredContent`). */
  structuredContent?: unknown;
}

export interface UserMessage {
  text: string;
}

export interface AssistantMessage {
  text: string;
}

export interface ThinkingMessage {
  text: string;
  thinkingDurationMs?: number;
}

export interface TextDeltaUpdate {
  type: 'text-delta';
  text: string;
}

export interface ThinkingDeltaUpdate {
  type: 'thinking-delta';
  text: string;
}

export interface ThinkingCompletedUpdate {
  type: 'thinking-completed';
  thinkingDurationMs: number;
}

/**
 * `callId` and `modelCallId` are both the tool call id the model gave: Cairn has no second id
 * space for tool calls.
 */
export interface ToolCallStartedUpdate {
  type: 'tool-call-started';
  callId: string;
  toolCall: ToolCall;
  modelCallId: string;
}

export interface PartialToolCallUpdate {
  type: 'partial-tool-call';
  callId: string;
  toolCall: ToolCall;
  modelCallId: string;
  /** Cairn: the argument text this update added. */
  argsTextDelta?: string;
}

export interface ToolCallCompletedUpdate {
  type: 'tool-call-completed';
  callId: string;
  toolCall: ToolCall;
  modelCallId: string;
}

export type NestedTaskUpdate =
  | TextDeltaUpdate
  | ToolCallStartedUpdate
  | ToolCallCompletedUpdate
  | ThinkingDeltaUpdate
  | ThinkingCompletedUpdate
  | PartialToolCallUpdate
  | StepStartedUpdate
  | StepCompletedUpdate;

/** One level of a subagent's updates, under the parent's `task` tool call. */
export interface ToolCallDeltaUpdate {
  type: 'tool-call-delta';
  callId: string;
  modelCallId: string;
  taskUpdate: NestedTaskUpdate;
}

export interface TokenDeltaUpdate {
  type: 'token-delta';
  tokens: number;
}

export interface StepStartedUpdate {
  type: 'step-started';
  /** 1-based number of the model call within the run. */
  stepId: number;
  /** Cairn: the mode this step runs in. */
  mode?: string;
}

export interface StepCompletedUpdate {
  type: 'step-completed';
  stepId: number;
  stepDurationMs: number;
  /** Cairn: why the model stopped (`stop`, `tool-calls`, `length`, ...). */
  finishReason?: string;
}

export interface TurnEndedUpdate {
  type: 'turn-ended';
  usage?: {
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    reasoningTokens?: number;
    /** Cairn: input + output tokens. */
    totalTokens?: number;
  };
}

export interface UserMessageAppendedUpdate {
  type: 'user-message-appended';
  userMessage: UserMessage;
}

export interface SummaryUpdate {
  type: 'summary';
  summary: string;
}

export interface SummaryStartedUpdate {
  type: 'summary-started';
}

export interface SummaryCompletedUpdate {
  type: 'summary-completed';
  /** Cairn: the estimated context size before and after the compaction. */
  tokensBefore?: number;
  tokensAfter?: number;
}

/** `event` is `{ callId, stream: 'stdout' | 'stderr', text }` for Cairn's shell tool. */
export interface ShellOutputDeltaUpdate {
  type: 'shell-output-delta';
  event: Record<string, unknown>;
}

/** Cairn: the run's mode changed (the user's send, the model's `switch_mode`, a plan approval). */
export interface ModeChangedUpdate {
  type: 'mode-changed';
  from: string;
  to: string;
  source: 'user' | 'tool' | 'plan-approval';
}

/** Cairn: the todo list changed. */
export interface TodosUpdatedUpdate {
  type: 'todos-updated';
  todos: Array<{ id: string; content: string; status: string }>;
}

/** Cairn: `create_plan` proposed a plan. */
export interface PlanCreatedUpdate {
  type: 'plan-created';
  plan: unknown;
}

/** Cairn: a model call failed and is retried after `delayMs`. */
export interface RetryUpdate {
  type: 'retry';
  attempt: number;
  delayMs: number;
  reason: string;
}

/**
 * Cairn: something the run could not use and went on without (an MCP server that failed to start or
 * was not trusted, a hook that failed or timed out), or a hook's message for the user. Said once per
 * cause and run; UIs should show it.
 */
export interface WarningUpdate {
  type: 'warning';
  /** `mcp`: a server; `hook`: a hook that failed, timed out, or had a message for the user. */
  source: 'mcp' | 'hook';
  message: string;
  /** For `mcp`: the server's name. */
  server?: string;
}

/**
 * Cairn: a tool call changed a file that makes other programs run code (package.json scripts,
 * `.npmrc`, CI workflows, Makefiles, ...), or a sandboxed command created a git repository that was
 * then quarantined. UIs should show it; the change itself is already done (or undone).
 */
export interface SensitiveFileChangedUpdate {
  type: 'sensitive-file-changed';
  callId: string;
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  change: 'created' | 'modified' | 'deleted' | 'quarantined';
  /** Why the file matters, for the user. */
  reason: string;
  /** `file-tool`: the agent's file tools wrote it; `shell`: a command did (found by comparing before and after). */
  source: 'file-tool' | 'shell';
}

/**
 * Cairn: the run waits for a person's answer (a tool call under an `ask` rule, a mode switch, a plan
 * to execute). Answer with `run.approve(callId, decision)` from any process sharing the store.
 */
export interface ApprovalRequestedUpdate {
  type: 'approval-requested';
  callId: string;
  kind: 'tool' | 'mode-switch' | 'plan';
  reason: string;
  rule?: string;
  toolName?: string;
  args?: unknown;
  modeSwitch?: { from: string; to: string; explanation: string; addedRights?: string[]; plan?: unknown };
}

/** Cairn: a request for approval was answered (`by`: sdk, canUseTool, approveModeSwitch, timeout, run-ended, ...). */
export interface ApprovalDecidedUpdate {
  type: 'approval-decided';
  callId: string;
  approved: boolean;
  reason?: string;
  by?: string;
}

/** Fine-grained updates for `onDelta` and UIs: the reference SDK's set plus Cairn's own. */
export type InteractionUpdate =
  | TextDeltaUpdate
  | ThinkingDeltaUpdate
  | ThinkingCompletedUpdate
  | ToolCallStartedUpdate
  | ToolCallCompletedUpdate
  | ToolCallDeltaUpdate
  | PartialToolCallUpdate
  | TokenDeltaUpdate
  | StepStartedUpdate
  | StepCompletedUpdate
  | TurnEndedUpdate
  | UserMessageAppendedUpdate
  | SummaryUpdate
  | SummaryStartedUpdate
  | SummaryCompletedUpdate
  | ShellOutputDeltaUpdate
  | ModeChangedUpdate
  | TodosUpdatedUpdate
  | PlanCreatedUpdate
  | RetryUpdate
  | WarningUpdate
  | SensitiveFileChangedUpdate
  | ApprovalRequestedUpdate
  | ApprovalDecidedUpdate;

export type InteractionUpdateType = InteractionUpdate['type'];

/** One step of an agent turn, as `run.conversation()` returns it and `onStep` receives it. */
export type ConversationStep =
  | { type: 'assistantMessage'; message: AssistantMessage }
  | { type: 'toolCall'; message: ToolCall }
  | { type: 'thinkingMessage'; message: ThinkingMessage };

export interface AgentConversationTurn {
  userMessage?: UserMessage;
  steps: ConversationStep[];
}

export interface ShellCommand {
  command: string;
  workingDirectory?: string;
}

export interface ShellOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface ShellConversationTurn {
  shellCommand?: ShellCommand;
  shellOutput?: ShellOutput;
}

export type ConversationTurn =
  | { type: 'agentConversationTurn'; turn: AgentConversationTurn }
  | { type: 'shellConversationTurn'; turn: ShellConversationTurn };

/** One entry of a run's append-only event log: what stream() replays and onDelta receives. */
export type RunEvent =
  | { kind: 'message'; message: SDKMessage }
  | { kind: 'update'; update: InteractionUpdate };
