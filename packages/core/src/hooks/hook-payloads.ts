import { resolve } from 'node:path';
import type { HookCommand } from './hook-config.js';
import { claudePermissionMode, claudeToolName, toClaudeInput, toClaudeResponse } from './hook-tool-names.js';
import type { AgentHooks, HookEventName, HookInputBase, ToolHookInput } from './hook-types.js';

/** The typed input of each event. */
export type HookEventInputs = { [Name in HookEventName]: Parameters<NonNullable<AgentHooks[Name]>>[0] };

/** The typed answer of each event (combined over all its hooks: never undefined). */
// biome-ignore lint/suspicious/noConfusingVoidType: removes the `void` a callback may return
export type HookEventOutputs = { [Name in HookEventName]: Exclude<Awaited<ReturnType<NonNullable<AgentHooks[Name]>>>, void | undefined> };

/** One event being dispatched, with what its file payloads need beyond the typed input. */
export interface DispatchedEvent<Name extends HookEventName = HookEventName> {
  name: Name;
  input: HookEventInputs[Name];
  /** Path of the conversation transcript (JSONL) the payload names. */
  transcriptPath: string;
  /** For Cursor's beforeReadFile: the file's content, read once for all hooks. */
  fileContent?: string;
}

/** The JSON a command hook reads on stdin, with the field names of its file's format. */
export function hookPayload(command: HookCommand, event: DispatchedEvent): Record<string, unknown> {
  return command.format === 'claude' ? claudePayload(command, event) : cursorPayload(command, event);
}

function claudePayload(command: HookCommand, event: DispatchedEvent): Record<string, unknown> {
  const input = event.input as unknown as HookInputBase & Record<string, unknown>;
  const base = {
    session_id: input.agentId,
    transcript_path: event.transcriptPath,
    cwd: input.cwd,
    permission_mode: claudePermissionMode(input.mode),
    hook_event_name: command.nativeEvent,
    ...(input.subagent ? { agent_id: input.subagent.id, agent_type: input.subagent.type } : {}),
  };
  const tool = (call: ToolHookInput) => ({ tool_name: claudeToolName(call.toolId, call.toolName), tool_input: toClaudeInput(call.toolId, call.input), tool_use_id: call.toolCallId });
  switch (event.name) {
    case 'preToolUse':
      return { ...base, ...tool(input as unknown as ToolHookInput) };
    case 'postToolUse': {
      const call = input as unknown as ToolHookInput & { output: string; structuredContent?: unknown };
      return { ...base, ...tool(call), tool_response: toClaudeResponse(call.toolId, call) };
    }
    case 'postToolUseFailure':
      return { ...base, ...tool(input as unknown as ToolHookInput), error: input.error };
    case 'userPromptSubmit':
      return { ...base, prompt: input.prompt };
    case 'sessionStart':
      return { ...base, source: input.source };
    case 'sessionEnd':
      return { ...base, reason: 'other' };
    case 'stop':
      return { ...base, stop_hook_active: input.stopHookActive };
    case 'subagentStart':
      return { ...base, agent_id: input.subagentId, agent_type: input.subagentType, prompt: input.prompt };
    case 'subagentStop':
      return { ...base, agent_id: input.subagentId, agent_type: input.subagentType, stop_hook_active: input.stopHookActive };
    case 'preCompact':
      return { ...base, trigger: input.trigger, custom_instructions: '' };
    case 'notification':
      return { ...base, message: input.message, notification_type: input.notificationType };
    default:
      return base;
  }
}

function cursorPayload(command: HookCommand, event: DispatchedEvent): Record<string, unknown> {
  const input = event.input as unknown as HookInputBase & Record<string, unknown>;
  const base = {
    conversation_id: input.agentId,
    generation_id: input.runId ?? '',
    hook_event_name: command.nativeEvent,
    workspace_roots: [input.cwd],
    transcript_path: event.transcriptPath,
  };
  const call = input as unknown as ToolHookInput;
  switch (command.nativeEvent) {
    case 'beforeShellExecution':
      return { ...base, command: String(call.input.command ?? ''), cwd: resolve(input.cwd, typeof call.input.cwd === 'string' ? call.input.cwd : '.') };
    case 'beforeMCPExecution':
      return { ...base, tool_name: mcpToolName(call.toolName), tool_input: call.input, server: mcpServerName(call.toolName) };
    case 'beforeReadFile':
      return { ...base, file_path: resolve(input.cwd, String(call.input.path ?? '')), content: event.fileContent ?? '', attachments: [] };
    case 'afterFileEdit':
      return { ...base, file_path: input.filePath, edits: (input.edits as Array<{ oldString: string; newString: string }>).map((edit) => ({ old_string: edit.oldString, new_string: edit.newString })) };
    case 'beforeSubmitPrompt':
      return { ...base, prompt: input.prompt, attachments: [] };
    case 'stop':
      return { ...base, status: 'completed', loop_count: input.continues };
    default:
      return base;
  }
}

/** `mcp__docs__search` -> `search`: Cursor names the server's own tool. */
function mcpToolName(name: string): string {
  const parts = name.split('__');
  return parts.length >= 3 ? parts.slice(2).join('__') : name;
}

function mcpServerName(name: string): string {
  const parts = name.split('__');
  return parts.length >= 3 ? (parts[1] ?? '') : '';
}
