import type { InteractionUpdate } from '../wire-types.js';
import { approvalDecided, approvalRequested } from './approvals-state.js';
import { appendOutput, appendStreamed, closeStreamed, completedTool, finishThinking, pushItem, replaceItem, toolIndex, upsertTool, withToolStatus } from './items.js';
import { planViewOf } from './plan-view.js';
import type { NoticeItem, RunViewState } from './run-view-types.js';

const notice = (offset: number, level: NoticeItem['level'], text: string): NoticeItem => ({ kind: 'notice', id: `notice-${offset}`, level, text });

/** One `event: update` (what `onDelta` receives) applied to the run's view. */
export function applyUpdate(state: RunViewState, update: InteractionUpdate, offset: number): RunViewState {
  switch (update.type) {
    case 'text-delta':
      return appendStreamed(state, 'assistant-text', update.text, offset);
    case 'thinking-delta':
      return appendStreamed(state, 'thinking', update.text, offset);
    case 'thinking-completed':
      return finishThinking(state, update.thinkingDurationMs);
    case 'turn-ended':
      // Its usage repeats the `usage` message written just before it: counted there, once.
      return closeStreamed(state);
    case 'step-started':
      return update.mode ? { ...state, mode: update.mode } : state;
    case 'partial-tool-call':
      return upsertTool(state, update.callId, (item) => (item.status === 'streaming' ? { ...item, argsText: update.toolCall.argsText ?? item.argsText ?? '' } : item), seedOf(update.toolCall));
    case 'tool-call-started':
      return upsertTool(state, update.callId, (item) => ({ ...withToolStatus(item, 'running'), ...(update.toolCall.args === undefined ? {} : { args: update.toolCall.args }) }), seedOf(update.toolCall));
    case 'tool-call-completed':
      // A refused call has no started update before it: the row is made here then.
      return upsertTool(state, update.callId, (item) => completedTool(item, update.toolCall), seedOf(update.toolCall));
    case 'shell-output-delta':
      return shellOutput(state, update.event);
    case 'tool-call-delta':
      return subagentText(state, update.callId, update.taskUpdate);
    case 'todos-updated':
      return todosUpdated(state, update.todos, offset);
    case 'plan-created':
      return planCreated(state, update.plan, offset);
    case 'mode-changed':
      return pushItem({ ...state, mode: update.to, ...(update.source === 'plan-approval' ? { planApproved: true } : {}) }, notice(offset, 'info', `Mode: ${update.from} → ${update.to}${update.source === 'plan-approval' ? ' (plan approved)' : ''}`));
    case 'approval-requested':
      return approvalRequested(state, update);
    case 'approval-decided':
      return approvalDecided(state, update);
    case 'retry':
      return pushItem(state, notice(offset, 'warning', `Retrying in ${(update.delayMs / 1000).toFixed(1)} s (attempt ${update.attempt}): ${update.reason}`));
    case 'warning':
      return pushItem(state, notice(offset, 'warning', update.server ? `${update.server}: ${update.message}` : update.message));
    case 'sensitive-file-changed':
      return pushItem(state, notice(offset, 'warning', `${update.path} was ${update.change}: ${update.reason}`));
    case 'summary-started':
      return pushItem(state, notice(offset, 'info', 'Compacting the conversation…'));
    case 'summary-completed':
      return pushItem(state, notice(offset, 'info', update.tokensAfter === undefined ? 'Conversation compacted.' : `Conversation compacted to about ${update.tokensAfter} tokens.`));
    default:
      // user-message-appended repeats the `user` message; token deltas and step ends change no view.
      return state;
  }
}

const seedOf = (call: { name: string; type: string }) => ({ name: call.name, toolType: call.type });

/** Cairn's shell streams `{callId, stream, text}` while the command runs. */
function shellOutput(state: RunViewState, event: Record<string, unknown>): RunViewState {
  const { callId, text } = event;
  if (typeof callId !== 'string' || typeof text !== 'string') return state;
  const index = toolIndex(state, callId);
  const item = state.items[index];
  return item?.kind === 'tool' ? replaceItem(state, index, appendOutput(item, text)) : state;
}

/** A subagent's answer streams under its parent's `task` row; its own tool calls stay in its run. */
function subagentText(state: RunViewState, callId: string, taskUpdate: { type: string }): RunViewState {
  if (taskUpdate.type !== 'text-delta') return state;
  const text = (taskUpdate as { text?: unknown }).text;
  const index = toolIndex(state, callId);
  const item = state.items[index];
  return item?.kind === 'tool' && typeof text === 'string' ? replaceItem(state, index, appendOutput(item, text)) : state;
}

/** One live checklist per run, placed where the list first appeared. */
function todosUpdated(state: RunViewState, todos: RunViewState['todos'], offset: number): RunViewState {
  const next = { ...state, todos: todos.map((todo) => ({ ...todo })) };
  return state.items.some((item) => item.kind === 'todos') ? next : pushItem(next, { kind: 'todos', id: `todos-${offset}` });
}

function planCreated(state: RunViewState, value: unknown, offset: number): RunViewState {
  const plan = planViewOf(value);
  return pushItem({ ...state, plan }, { kind: 'plan', id: `plan-${offset}`, plan });
}
