import type { SDKMessage, SDKStatusMessage, SDKToolUseMessage, TokenUsage } from '../wire-types.js';
import { closePendingApprovals } from './approvals-state.js';
import { closeStreamed, closeUnfinishedTools, pushItem, upsertTool, withToolStatus } from './items.js';
import { isTerminal } from './run-status.js';
import type { RunViewState, ToolItem } from './run-view-types.js';

/**
 * One `event: message` (what `run.stream()` yields) applied to the run's view. Text, thinking and
 * tool results come from the updates, which arrive first and in order; the messages that repeat
 * them (`assistant`, `thinking`, a completed `tool_call`) only fill in what updates did not say.
 */
export function applyMessage(state: RunViewState, message: SDKMessage, offset: number): RunViewState {
  switch (message.type) {
    case 'system':
      return { ...state, ...(message.mode ? { mode: message.mode } : {}), ...(message.model ? { model: message.model } : {}) };
    case 'user': {
      const text = message.message.content.map((block) => block.text).join('');
      return pushItem(closeStreamed(state), { kind: 'user', id: `user-${offset}`, text });
    }
    case 'assistant':
      return closeStreamed(state);
    case 'tool_call':
      return upsertTool(state, message.call_id, (item) => toolFromMessage(item, message), { name: message.name, toolType: message.name });
    case 'usage':
      return { ...state, usage: addUsage(state.usage, message.usage) };
    case 'status':
      return applyStatus(state, message, offset);
    default:
      return state;
  }
}

/** The `tool_call` message fills a row only where the updates (which carry more) did not. */
function toolFromMessage(item: ToolItem, message: SDKToolUseMessage): ToolItem {
  const args = item.args === undefined && message.args !== undefined ? { args: message.args } : {};
  if (message.status === 'running') return { ...withToolStatus(item, 'running'), ...args };
  if (item.status === 'completed' || item.status === 'error') return item;
  const failed = message.status === 'error';
  return { ...item, ...args, status: failed ? 'error' : 'completed', isError: failed, ...(typeof message.result === 'string' ? { result: message.result } : {}) };
}

function applyStatus(state: RunViewState, message: SDKStatusMessage, offset: number): RunViewState {
  const withMode = message.mode ? { ...state, mode: message.mode } : state;
  if (message.status === 'RUNNING') {
    // A run that ended (its record may say so before the log's replay does) never runs again.
    if (state.ended || isTerminal(state.status)) return withMode;
    // The notices of a run's start (a fallback taken) are plain RUNNING messages with text.
    const said = message.message && !message.phase ? pushItem(withMode, { kind: 'notice', id: `notice-${offset}`, level: 'info', text: message.message }) : withMode;
    return { ...said, status: 'running' };
  }
  const status = message.status === 'FINISHED' ? 'finished' : message.status === 'CANCELLED' ? 'cancelled' : 'error';
  let next: RunViewState = { ...closeUnfinishedTools(closePendingApprovals(closeStreamed(withMode)), status), status, ended: true, ...(message.error ? { error: message.error } : {}) };
  if (status === 'error') next = pushItem(next, { kind: 'notice', id: `notice-${offset}`, level: 'error', text: message.error?.message ?? message.message ?? 'The run failed.' });
  if (status === 'cancelled') next = pushItem(next, { kind: 'notice', id: `notice-${offset}`, level: 'info', text: 'Cancelled.' });
  return next;
}

export function addUsage(total: TokenUsage | undefined, add: TokenUsage): TokenUsage {
  if (!total) return { ...add };
  const reasoning = (total.reasoningTokens ?? 0) + (add.reasoningTokens ?? 0);
  return {
    inputTokens: total.inputTokens + add.inputTokens,
    outputTokens: total.outputTokens + add.outputTokens,
    cacheReadTokens: total.cacheReadTokens + add.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + add.cacheWriteTokens,
    totalTokens: total.totalTokens + add.totalTokens,
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
