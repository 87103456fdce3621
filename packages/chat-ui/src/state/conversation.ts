import type { Run } from '../wire-types.js';
import { initialRunView, runViewReducer } from './run-view-reducer.js';
import type { ApprovalView, RunViewEvent, RunViewState } from './run-view-types.js';

/** An agent's conversation as the chat shows it: its runs, oldest first, each with its own view. */
export interface ConversationState {
  agentId?: string;
  order: string[];
  runs: Record<string, RunViewState>;
}

export type ConversationAction =
  | { type: 'reset'; agentId?: string }
  | { type: 'run'; run: Run }
  | { type: 'run-event'; runId: string; event: RunViewEvent }
  | { type: 'batch'; actions: ConversationAction[] };

export const emptyConversation: ConversationState = { order: [], runs: {} };

/** Pure, like runViewReducer: each run is reduced on its own, so runs may load in any order. */
export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'reset':
      return { ...emptyConversation, ...(action.agentId ? { agentId: action.agentId } : {}) };
    case 'run':
      return applyToRun(state, action.run.id, { kind: 'run', run: action.run });
    case 'run-event':
      return applyToRun(state, action.runId, action.event);
    case 'batch':
      return action.actions.reduce(conversationReducer, state);
  }
}

function applyToRun(state: ConversationState, runId: string, event: RunViewEvent): ConversationState {
  const current = state.runs[runId] ?? initialRunView(runId);
  const next = runViewReducer(current, event);
  if (next === current && state.runs[runId]) return state;
  const runs = { ...state.runs, [runId]: next };
  const order = state.order.includes(runId) ? state.order : [...state.order, runId];
  return { ...state, runs, order: sortByCreation(order, runs) };
}

/** Runs in the order they were made; one not yet known by its record goes last. */
function sortByCreation(order: string[], runs: Record<string, RunViewState>): string[] {
  const created = (id: string) => runs[id]?.run?.createdAt ?? Number.MAX_SAFE_INTEGER;
  return order.slice().sort((a, b) => created(a) - created(b));
}

export function runsOf(state: ConversationState): RunViewState[] {
  return state.order.map((id) => state.runs[id]).filter((run): run is RunViewState => run !== undefined);
}

/** Requests that still wait for an answer, with the run each belongs to. */
export function pendingApprovals(state: ConversationState): Array<ApprovalView & { runId: string }> {
  return runsOf(state).flatMap((run) => (run.runId ? run.approvals.filter((approval) => approval.status === 'pending').map((approval) => ({ ...approval, runId: run.runId as string })) : []));
}

export function latestRun(state: ConversationState): RunViewState | undefined {
  return runsOf(state).at(-1);
}
