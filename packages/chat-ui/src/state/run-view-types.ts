import type { RunStreamEvent } from '../client/run-events.js';
import type { ApprovalKind, ApprovalRecord, ModeSwitchRequest, ModelSelection, Run, RunEnd, RunStatus, TodoItem, TokenUsage } from '../wire-types.js';
import type { EditDiff } from './edit-diff.js';
import type { PlanView } from './plan-view.js';

/**
 * `streaming`: the model is still writing the arguments; `awaiting-approval`: a person must allow
 * it first; `running`: the tool runs; then `completed` or `error`.
 */
export type ToolStatus = 'streaming' | 'running' | 'awaiting-approval' | 'completed' | 'error';

export interface UserItem {
  kind: 'user';
  id: string;
  text: string;
}

/** One stretch of the answer between tool calls, grown by `text-delta`s; `open` while it may grow. */
export interface AssistantTextItem {
  kind: 'assistant-text';
  id: string;
  text: string;
  open: boolean;
}

export interface ThinkingItem {
  kind: 'thinking';
  id: string;
  text: string;
  open: boolean;
  durationMs?: number;
}

export interface ToolItem {
  kind: 'tool';
  id: string;
  callId: string;
  /** The model-facing name (`edit_file`). */
  name: string;
  /** The tool id (`edit`, `shell`, a custom tool's name). */
  toolType: string;
  status: ToolStatus;
  args?: unknown;
  /** The argument text while it streams. */
  argsText?: string;
  result?: string;
  isError?: boolean;
  truncated?: { args?: boolean; result?: boolean };
  structuredContent?: unknown;
  /** Live output: a shell's stdout/stderr, a subagent's text. */
  output?: string;
  /** The change an edit tool made. */
  diff?: EditDiff;
}

/** Where the run's live todo list sits in the transcript (its contents are `RunViewState.todos`). */
export interface TodosItem {
  kind: 'todos';
  id: string;
}

export interface PlanItem {
  kind: 'plan';
  id: string;
  plan: PlanView;
}

/** A line about the run itself: a retry, a warning, a mode change, an error. */
export interface NoticeItem {
  kind: 'notice';
  id: string;
  level: 'info' | 'warning' | 'error';
  text: string;
}

export type RunItem = UserItem | AssistantTextItem | ThinkingItem | ToolItem | TodosItem | PlanItem | NoticeItem;

export interface ApprovalView {
  callId: string;
  kind: ApprovalKind;
  reason: string;
  rule?: string;
  toolName?: string;
  args?: unknown;
  modeSwitch?: ModeSwitchRequest;
  status: 'pending' | 'approved' | 'denied';
  decision?: { approved: boolean; reason?: string; by?: string };
}

/** What one run looks like, rebuilt from its event log alone (so a reload shows the same). */
export interface RunViewState {
  runId?: string;
  items: RunItem[];
  /** The offset of the last log event applied; later events at or before it are ignored. */
  lastOffset: number;
  /** `idle` until the first event or the run's REST record says otherwise. */
  status: RunStatus | 'idle';
  /** True once the run ended (`end` event or the final status message). */
  ended: boolean;
  mode?: string;
  model?: ModelSelection;
  todos: TodoItem[];
  plan?: PlanView;
  /** A plan was approved in this run (its mode changed with source `plan-approval`). */
  planApproved?: boolean;
  /** In the order they were requested. */
  approvals: ApprovalView[];
  /** Summed over the run's `usage` messages; replaced by the run's own total once it ended. */
  usage?: TokenUsage;
  error?: { message: string; code?: string };
  result?: string;
  run?: Run;
}

/**
 * What the reducer accepts: the run's log events (with offsets) plus what REST answers tell
 * about the same run (its record, its approvals), which carry no offset and are merged.
 */
export type RunViewEvent = RunStreamEvent | { kind: 'end'; end: RunEnd } | { kind: 'run'; run: Run } | { kind: 'approvals'; approvals: ApprovalRecord[] };
