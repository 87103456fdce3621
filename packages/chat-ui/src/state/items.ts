import type { ToolCall } from '../wire-types.js';
import { editDiffOf } from './edit-diff.js';
import type { RunItem, RunViewState, ToolItem, ToolStatus } from './run-view-types.js';

// Pure helpers over the item list: each returns a new state and never changes the one it got, so
// React sees a new array exactly when something changed.

export function pushItem(state: RunViewState, item: RunItem): RunViewState {
  return { ...state, items: [...state.items, item] };
}

export function replaceItem(state: RunViewState, index: number, item: RunItem): RunViewState {
  const items = state.items.slice();
  items[index] = item;
  return { ...state, items };
}

/** Grow the open text (or thinking) item at the end, or start one named after the event's offset. */
export function appendStreamed(state: RunViewState, kind: 'assistant-text' | 'thinking', text: string, offset: number): RunViewState {
  if (!text) return state;
  const last = state.items.at(-1);
  if (last && last.kind === kind && last.open) return replaceItem(state, state.items.length - 1, { ...last, text: last.text + text });
  return pushItem(state, { kind, id: `${kind}-${offset}`, text, open: true });
}

/** A turn ended: its text and thinking are final, and the next turn's text starts a new block. */
export function closeStreamed(state: RunViewState): RunViewState {
  if (!state.items.some((item) => (item.kind === 'assistant-text' || item.kind === 'thinking') && item.open)) return state;
  return { ...state, items: state.items.map((item) => ((item.kind === 'assistant-text' || item.kind === 'thinking') && item.open ? { ...item, open: false } : item)) };
}

/**
 * The run ended: a tool call still going never gets a result any more (a cancel stops it without a
 * `tool-call-completed`), so its row says so instead of spinning forever.
 */
export function closeUnfinishedTools(state: RunViewState, status: 'finished' | 'error' | 'cancelled'): RunViewState {
  const open = (item: RunViewState['items'][number]) => item.kind === 'tool' && item.status !== 'completed' && item.status !== 'error';
  if (!state.items.some(open)) return state;
  const result = status === 'cancelled' ? 'Cancelled before it finished.' : 'The run ended before this call finished.';
  return { ...state, items: state.items.map((item) => (item.kind === 'tool' && open(item) ? { ...item, status: 'error', isError: true, result: item.result ?? result } : item)) };
}

export function finishThinking(state: RunViewState, durationMs: number): RunViewState {
  const index = state.items.findLastIndex((item) => item.kind === 'thinking' && item.open);
  const item = state.items[index];
  if (!item || item.kind !== 'thinking') return state;
  return replaceItem(state, index, { ...item, open: false, ...(durationMs > 0 ? { durationMs } : {}) });
}

export function toolIndex(state: RunViewState, callId: string): number {
  return state.items.findIndex((item) => item.kind === 'tool' && item.callId === callId);
}

/** Change the call's row, creating it when this is the first event about the call. */
export function upsertTool(state: RunViewState, callId: string, change: (current: ToolItem) => ToolItem, seed: { name: string; toolType: string }): RunViewState {
  const index = toolIndex(state, callId);
  const current = state.items[index];
  if (current?.kind === 'tool') return replaceItem(state, index, change(current));
  const fresh: ToolItem = { kind: 'tool', id: `tool-${callId}`, callId, name: seed.name, toolType: seed.toolType, status: 'streaming' };
  return pushItem(state, change(fresh));
}

/** A tool's status, unless the row already moved past it (a late `running` never reopens a finished call). */
export function withToolStatus(item: ToolItem, status: ToolStatus): ToolItem {
  if (item.status === 'completed' || item.status === 'error') return item;
  return { ...item, status };
}

/** The call as `tool-call-completed` reports it: the whole call, its result and, for edits, the diff. */
export function completedTool(item: ToolItem, call: ToolCall): ToolItem {
  const failed = call.status === 'error' || call.isError === true;
  const args = call.args ?? item.args;
  const diff = failed ? undefined : editDiffOf({ name: call.name, toolType: call.type, args, structuredContent: call.structuredContent });
  const { argsText: _streamed, ...rest } = item;
  return {
    ...rest,
    name: call.name,
    toolType: call.type,
    status: failed ? 'error' : 'completed',
    ...(args === undefined ? {} : { args }),
    ...(call.result === undefined ? {} : { result: call.result }),
    isError: failed,
    ...(call.truncated ? { truncated: call.truncated } : {}),
    ...(call.structuredContent === undefined ? {} : { structuredContent: call.structuredContent }),
    ...(diff ? { diff } : {}),
  };
}

/** Keep live output bounded: a chatty command must not grow the page without end. */
const maxOutput = 20_000;

export function appendOutput(item: ToolItem, text: string): ToolItem {
  const output = (item.output ?? '') + text;
  return { ...item, output: output.length > maxOutput ? output.slice(-maxOutput) : output };
}
