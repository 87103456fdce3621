import type { PermissionRequest } from '../permissions/permission-engine.js';
import type { JSONValue } from '../spec/json.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { errorResult, type NormalizedToolResult } from './tool-result.js';

export interface ToolCallRequest {
  toolCallId: string;
  toolName: string;
  inputText: string;
}

export interface ToolCallOutcome extends NormalizedToolResult {
  toolCallId: string;
  toolName: string;
  args: JSONValue;
  /** The call never ran: unknown tool, bad JSON, failed schema. */
  invalid: boolean;
}

export interface PermissionVerdict {
  /** `ask`: a rule (or the default) wants the user's approval, and this run has a way to ask (see awaitingApproval). */
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  /** The rule that decided, as written (`ask: shell(git push*) [agent]`). */
  rule?: string;
  /** For `ask`: what a `canUseTool` callback is shown. */
  request?: PermissionRequest;
}

/**
 * A tool call after its checks: `ready` to run, `ask` waiting for the user's approval, or `done`
 * (it never runs: unknown tool, bad JSON, failed schema, refused) with the result the model reads.
 */
export type CheckedToolCall =
  | { kind: 'ready'; call: ToolCallRequest; tool: ToolDefinition; input: unknown; args: JSONValue; paths: string[] }
  | { kind: 'ask'; call: ToolCallRequest; tool: ToolDefinition; input: unknown; args: JSONValue; paths: string[]; verdict: PermissionVerdict }
  | { kind: 'done'; call: ToolCallRequest; outcome: ToolCallOutcome };

/** The result of a call the permission rules, a reviewer or the user refused. */
export function deniedCall(call: ToolCallRequest, args: JSONValue, reason: string): CheckedToolCall {
  const outcome = { toolCallId: call.toolCallId, toolName: call.toolName, args, ...errorResult(`Permission denied for ${call.toolName}: ${reason}`), invalid: false };
  return { kind: 'done', call, outcome };
}
