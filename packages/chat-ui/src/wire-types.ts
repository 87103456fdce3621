import type { AgentUsage, ApprovalKind, ApprovalRecord, ApprovalRequestedUpdate, ConversationStep, ConversationTurn, InteractionUpdate, ModelListItem, ModelSelection, RunStatus, RunUsage, SDKAgentInfo, SDKAssistantMessage, SDKMessage, SDKRequestMessage, SDKStatus, SDKStatusMessage, SDKSystemMessage, SDKTaskMessage, SDKThinkingMessage, SDKToolUseMessage, SDKUsageMessage, SDKUserMessageEvent, TextBlock, TokenUsage, ToolCall, ToolUseBlock, UsageCost } from '@cairn/core';

// The SDK's own types, from @cairn/core's browser-safe root (types only: nothing of core is bundled).
export type { AgentUsage, ApprovalKind, ApprovalRecord, ApprovalRequestedUpdate, ConversationStep, ConversationTurn, InteractionUpdate, ModelListItem, ModelSelection, RunStatus, RunUsage, SDKAgentInfo, SDKAssistantMessage, SDKMessage, SDKRequestMessage, SDKStatus, SDKStatusMessage, SDKSystemMessage, SDKTaskMessage, SDKThinkingMessage, SDKToolUseMessage, SDKUsageMessage, SDKUserMessageEvent, TextBlock, TokenUsage, ToolCall, ToolUseBlock, UsageCost };
// The JSON the Cairn server sends. The SDK's own shapes come from @cairn/core (types only: nothing
// of core is bundled into the page); what is declared below is the server's (docs/server-api.md).

export interface TodoItem {
  id: string;
  content: string;
  status: string;
}

export interface ModeSwitchRequest {
  from: string;
  to: string;
  explanation: string;
  addedRights?: string[];
  plan?: unknown;
}

// --- REST resources ---

/** What `GET /v1/agents` lists. */
export type AgentInfo = SDKAgentInfo;

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
