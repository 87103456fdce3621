import type { Run, RunEnd } from '../wire-types.js';
import { approvalRecords, closePendingApprovals } from './approvals-state.js';
import { closeStreamed, closeUnfinishedTools } from './items.js';
import { applyMessage } from './message-events.js';
import { isTerminal } from './run-status.js';
import type { RunViewEvent, RunViewState } from './run-view-types.js';
import { applyUpdate } from './update-events.js';

export function initialRunView(runId?: string): RunViewState {
  return { ...(runId ? { runId } : {}), items: [], lastOffset: 0, status: 'idle', ended: false, todos: [], approvals: [] };
}

/**
 * The view of one run from its event stream. Pure, and idempotent by offset: a log event at or
 * before the last one applied is ignored, so replaying the log after a reload (or a reconnect that
 * overlaps) rebuilds exactly the same state. REST facts (the run record, approval records) carry no
 * offset and are merged so that they never undo what the log said.
 */
export function runViewReducer(state: RunViewState, event: RunViewEvent): RunViewState {
  switch (event.kind) {
    case 'message':
    case 'update': {
      if (event.offset <= state.lastOffset) return state;
      const next = event.kind === 'message' ? applyMessage(state, event.message, event.offset) : applyUpdate(state, event.update, event.offset);
      return { ...next, lastOffset: event.offset };
    }
    case 'end':
      return ended(state, event.end);
    case 'run':
      return withRun(state, event.run);
    case 'approvals':
      return approvalRecords(state, event.approvals);
  }
}

function ended(state: RunViewState, end: RunEnd): RunViewState {
  const { run } = end;
  return {
    ...closeUnfinishedTools(closePendingApprovals(closeStreamed(state)), end.status),
    runId: run.id,
    run,
    status: end.status,
    ended: true,
    ...(run.mode ? { mode: run.mode } : {}),
    // The run's own total includes its subagents, which the `usage` messages do not.
    ...(run.usage ? { usage: run.usage } : {}),
    ...(run.error ? { error: run.error } : {}),
    ...(run.result === undefined ? {} : { result: run.result }),
  };
}

/**
 * The run's REST record. An ended run stays ended whichever comes first, the record or the log's
 * final status (a run never runs again), so the two can arrive in any order. The record does not
 * end the view itself: the log's final status or the `end` event does.
 */
function withRun(state: RunViewState, run: Run): RunViewState {
  const status = isTerminal(state.status) ? state.status : run.status;
  return { ...state, runId: run.id, run, status, ...(state.mode ? {} : { mode: run.mode }), ...(state.model ? {} : { model: run.model }) };
}
