// The JSON the Cairn server sends, declared here rather than imported from @cairn/core: the chat
// package ships to browsers and must not depend on the runtime. Field names follow
// packages/core/src/spec (events/v1/events.ts, events/v1/usage.ts, store/v1/approvals.ts) and
// runtime/agent-info.ts exactly; only the fields this package reads or sends are declared.

export type RunStatus = 'running' | 'finished' | 'error' | 'cancelled';

export interface ModelParameterValue {
  id: string;
  value: string;
}

export interface ModelSelection {
  id: string;
  params?: ModelParameterValue[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
}

export interface UsageCost {
  rawCostCents: number;
  chargedCents: number;
}

export interface RunUsage {
  runId: string;
  usage: TokenUsage;
  cost?: UsageCost;
  model?: string;
}

export interface AgentUsage {
  usage: TokenUsage;
  cost?: UsageCost;
  runs: RunUsage[];
}

// --- SDK messages (`event: message`) ---

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

export type SDKStatus = 'CREATING' | 'RUNNING' | 'FINISHED' | 'ERROR' | 'CANCELLED' | 'EXPIRED';

export interface SDKSystemMessage extends SDKMessageBase {
  type: 'system';
  subtype?: 'init';
  model?: ModelSelection;
  tools?: string[];
  mode?: string;
  cwd?: string;
}

export interface SDKUserMessageEvent extends SDKMessageBase {
  type: 'user';
  message: { role: 'user'; content: TextBlock[] };
}

export interface SDKAssistantMessage extends SDKMessageBase {
  type: 'assistant';
  message: { role: 'assistant'; content: Array<TextBlock | ToolUseBlock> };
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
  result?: unknown;
  truncated?: { args?: boolean; result?: boolean };
}

export interface SDKStatusMessage extends SDKMessageBase {
  type: 'status';
  status: SDKStatus;
  message?: string;
  phase?: 'mode-changed' | 'retrying' | 'compacting' | 'awaiting-approval';
  mode?: string;
  error?: { message: string; code: string };
}

export interface SDKTaskMessage extends SDKMessageBase {
  type: 'task';
  status?: string;
  text?: string;
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

// --- Interaction updates (`event: update`) ---

/** One tool call as updates show it: `type` is the tool id (`edit`, `shell`), `name` the model-facing name. */
export interface ToolCall {
  type: string;
  name: string;
  callId?: string;
  args?: unknown;
  argsText?: string;
  status?: 'running' | 'completed' | 'error';
  result?: string;
  isError?: boolean;
  truncated?: { args?: boolean; result?: boolean };
  structuredContent?: unknown;
}

export interface TodoItem {
  id: string;
  content: string;
  status: string;
}

export type InteractionUpdate =
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'thinking-completed'; thinkingDurationMs: number }
  | { type: 'tool-call-started'; callId: string; toolCall: ToolCall; modelCallId: string }
  | { type: 'partial-tool-call'; callId: string; toolCall: ToolCall; modelCallId: string; argsTextDelta?: string }
  | { type: 'tool-call-completed'; callId: string; toolCall: ToolCall; modelCallId: string }
  | { type: 'tool-call-delta'; callId: string; modelCallId: string; taskUpdate: { type: string } }
  | { type: 'token-delta'; tokens: number }
  | { type: 'step-started'; stepId: number; mode?: string }
  | { type: 'step-completed'; stepId: number; stepDurationMs: number; finishReason?: string }
  | { type: 'turn-ended'; usage?: Partial<TokenUsage> & { inputTokens: number; outputTokens: number } }
  | { type: 'user-message-appended'; userMessage: { text: string } }
  | { type: 'summary'; summary: string }
  | { type: 'summary-started' }
  | { type: 'summary-completed'; tokensBefore?: number; tokensAfter?: number }
  | { type: 'shell-output-delta'; event: Record<string, unknown> }
  | { type: 'mode-changed'; from: string; to: string; source: 'user' | 'tool' | 'plan-approval' }
  | { type: 'todos-updated'; todos: TodoItem[] }
  | { type: 'plan-created'; plan: unknown }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string }
  | { type: 'warning'; source: 'mcp' | 'hook'; message: string; server?: string }
  | {
      type: 'sensitive-file-changed';
      callId: string;
      path: string;
      change: 'created' | 'modified' | 'deleted' | 'quarantined';
      reason: string;
      source: 'file-tool' | 'shell';
    }
  | ApprovalRequestedUpdate
  | { type: 'approval-decided'; callId: string; approved: boolean; reason?: string; by?: string };

export type ApprovalKind = 'tool' | 'mode-switch' | 'plan';

export interface ModeSwitchRequest {
  from: string;
  to: string;
  explanation: string;
  addedRights?: string[];
  plan?: unknown;
}

export interface ApprovalRequestedUpdate {
  type: 'approval-requested';
  callId: string;
  kind: ApprovalKind;
  reason: string;
  rule?: string;
  toolName?: string;
  args?: unknown;
  modeSwitch?: ModeSwitchRequest;
}

// --- REST resources ---

/** The store's `ApprovalRecord`, as `GET /v1/runs/{id}/approvals` lists it. */
export interface ApprovalRecord {
  runId: string;
  agentId: string;
  callId: string;
  kind: ApprovalKind;
  toolName?: string;
  args?: unknown;
  reason: string;
  rule?: string;
  modeSwitch?: { from: string; to: string; explanation: string; addedRights: string[]; plan?: unknown };
  status: 'pending' | 'approved' | 'denied';
  decision?: { approved: boolean; reason?: string; by?: string };
  createdAt: number;
  decidedAt?: number;
}

/** `SDKAgentInfo` of the runtime: what `GET /v1/agents` lists. */
export interface AgentInfo {
  agentId: string;
  name: string;
  summary: string;
  lastModified: number;
  status?: 'running' | 'finished' | 'error';
  createdAt: number;
  archived: boolean;
  runtime: 'local';
  cwd: string;
  latestRunStatus?: RunStatus;
  latestRunId?: string;
  model: ModelSelection;
  mode: string;
  updatedAt: number;
}

/** The runtime's name for the same shape. */
export type SDKAgentInfo = AgentInfo;

export interface Run {
  id: string;
  agentId: string;
  requestId: string;
  status: RunStatus;
  mode: string;
  model: ModelSelection;
  createdAt: number;
  result?: string;
  error?: { message: string; code?: string };
  usage?: TokenUsage;
  durationMs?: number;
  pendingApprovals: number;
}

export interface ModelListItem {
  id: string;
  displayName: string;
  description?: string;
  aliases?: string[];
}

export interface ConversationStep {
  type: 'assistantMessage' | 'toolCall' | 'thinkingMessage';
  message: { text?: string } & Partial<ToolCall>;
}

export type ConversationTurn =
  | { type: 'agentConversationTurn'; turn: { userMessage?: { text: string }; steps: ConversationStep[] } }
  | { type: 'shellConversationTurn'; turn: { shellCommand?: { command: string }; shellOutput?: { stdout: string; stderr: string; exitCode: number } } };

export interface Artifact {
  path: string;
  sizeBytes: number;
  updatedAt: number | string;
}

export interface ServerInfo {
  version: string;
  roots: string[];
  defaultCwd: string;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

export type PermissionRules = { allow?: string[]; deny?: string[]; ask?: string[] };

/** `SendBody`: text or images required. */
export interface SendBody {
  text?: string;
  images?: Array<{ data: string; mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' }>;
  mode?: string;
  model?: string | ModelSelection;
  approvePlan?: boolean;
}

export interface CreateAgentBody {
  model?: string | ModelSelection;
  mode?: string;
  name?: string;
  agentId?: string;
  maxSteps?: number;
  permissions?: PermissionRules;
  defaultPermission?: 'allow' | 'ask' | 'deny';
  tools?: string[];
  disallowedTools?: string[];
  systemPrompt?: { append?: string };
  local: { cwd: string; sandboxOptions?: { enabled: boolean }; settingSources?: Array<'project' | 'user' | 'local' | 'plugins'> };
  prompt?: SendBody;
}

export type ApprovalDecisionValue = 'allow' | 'deny' | 'allow-always';

/** The payload of `event: end`. */
export interface RunEnd {
  status: Exclude<RunStatus, 'running'>;
  run: Run;
}
