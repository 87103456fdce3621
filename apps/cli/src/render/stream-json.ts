import { randomUUID } from 'node:crypto';
import type { InteractionUpdate, SDKMessage, SDKSystemMessage, SDKToolUseMessage } from '@cairn/sdk';
import { snakeUsage } from './headless-usage.js';

export type HeadlessLine = Record<string, unknown>;

/** Claude Code's permission modes for a Cairn mode: `plan` is read-only in both; the rules decide the rest. */
export function permissionModeOf(mode: string | undefined): 'plan' | 'default' {
  return mode === 'plan' ? 'plan' : 'default';
}

/**
 * Translates one agent's SDK messages and updates into Claude Code's `stream-json` lines (snake_case
 * keys throughout). An assistant message is held until the usage of its model call arrives, so the
 * line carries `message.usage` as Claude Code's does.
 */
export function createStreamJson(sessionId: string, write: (line: HeadlessLine) => void) {
  let model = '';
  let pending: HeadlessLine | undefined;
  let messageCount = 0;
  const emit = (line: HeadlessLine) => write({ ...line, session_id: sessionId, uuid: randomUUID() });
  const flush = () => {
    if (pending) emit(pending);
    pending = undefined;
  };
  const assistant = (runId: string, content: unknown[]): HeadlessLine => ({
    type: 'assistant',
    message: { id: `msg_${runId}_${++messageCount}`, type: 'message', role: 'assistant', model, content, stop_reason: null, stop_sequence: null, usage: snakeUsage(undefined) },
    parent_tool_use_id: null,
  });

  return {
    onMessage(message: SDKMessage): void {
      if (message.type === 'usage' && pending) {
        (pending.message as HeadlessLine).usage = snakeUsage(message.usage);
        flush();
        return;
      }
      if (message.type === 'system' && message.subtype === 'init') model = message.model?.id ?? model;
      const line = lineOf(message, assistant);
      if (!line) return;
      flush();
      if (message.type === 'assistant') pending = line;
      else emit(line);
    },
    onDelta(update: InteractionUpdate): void {
      // Updates come on their own channel, ahead of the stream: a held assistant line stays held.
      const line = updateLine(update);
      if (line) emit(line);
    },
    finish: flush,
  };
}

type AssistantLine = (runId: string, content: unknown[]) => HeadlessLine;

function lineOf(message: SDKMessage, assistant: AssistantLine): HeadlessLine | undefined {
  switch (message.type) {
    case 'system':
      return message.subtype === 'init' ? initLine(message) : undefined;
    case 'assistant':
      return assistant(message.run_id, message.message.content);
    case 'thinking':
      return assistant(message.run_id, [{ type: 'thinking', thinking: message.text, signature: '' }]);
    case 'tool_call':
      return message.status === 'running' ? undefined : toolResultLine(message);
    case 'status':
      return message.phase === 'compacting' ? { type: 'system', subtype: 'status', status: 'compacting' } : undefined;
    case 'task':
      return { type: 'system', subtype: 'task', ...(message.call_id ? { tool_use_id: message.call_id } : {}), ...(message.subagent_type ? { subagent_type: message.subagent_type } : {}), ...(message.status ? { status: message.status } : {}), ...(message.text ? { text: message.text } : {}) };
    default:
      // `user` echoes the prompt (Claude Code prints it only with --replay-user-messages); `request` and
      // `usage` (folded into the assistant line) have no line of their own.
      return undefined;
  }
}

function initLine(message: SDKSystemMessage): HeadlessLine {
  return {
    type: 'system',
    subtype: 'init',
    cwd: message.cwd ?? '',
    model: message.model?.id ?? '',
    tools: message.tools ?? [],
    permission_mode: permissionModeOf(message.mode),
    mode: message.mode ?? 'agent',
    run_id: message.run_id,
  };
}

function toolResultLine(message: SDKToolUseMessage): HeadlessLine {
  const content = typeof message.result === 'string' ? message.result : JSON.stringify(message.result ?? '');
  return {
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: message.call_id, content, is_error: message.status === 'error' }] },
    parent_tool_use_id: null,
  };
}

/** Lines for the updates a script should see: retries (Claude Code's `api_retry`), warnings, mode changes. */
function updateLine(update: InteractionUpdate): HeadlessLine | undefined {
  if (update.type === 'retry') return { type: 'system', subtype: 'api_retry', attempt: update.attempt, retry_delay_ms: update.delayMs, error: update.reason };
  if (update.type === 'warning') return { type: 'system', subtype: 'warning', source: update.source, message: update.message, ...(update.server ? { server: update.server } : {}) };
  if (update.type === 'mode-changed') return { type: 'system', subtype: 'mode_changed', from: update.from, to: update.to, source: update.source, permission_mode: permissionModeOf(update.to) };
  if (update.type === 'plan-created') return { type: 'system', subtype: 'plan', plan: update.plan };
  return undefined;
}
