import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type RunStreamEvent, conversationReducer, emptyConversation, initialRunView, runsOf, runViewReducer } from '../src/index.js';

// Event logs written by the real runtime (a scripted model, the real tools and modes), saved with
// their store offsets: a plan proposed in plan mode, then a run that approves it and asks to
// `git push`, which is denied. Paths and ids were replaced by fixed ones.
const load = (name: string): RunStreamEvent[] => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const planRun = load('plan-run.json');
const approvedRun = load('approved-plan-run.json');

describe('recorded runs', () => {
  it('shows the proposed plan of the plan-mode run', () => {
    const state = planRun.reduce(runViewReducer, initialRunView('run-plan'));
    expect(state).toMatchObject({ status: 'finished', ended: true, mode: 'plan', plan: { name: 'Bump', overview: 'Do it.', steps: [{ id: 'a', content: 'Edit' }] } });
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'tool', 'plan', 'tool', 'assistant-text']);
    expect(state.items[1]).toMatchObject({ kind: 'tool', name: 'create_plan', status: 'completed' });
    expect(state.planApproved).toBeUndefined();
  });

  it('records the approval, the loaded todos and the denied command of the next run', () => {
    const state = approvedRun.reduce(runViewReducer, initialRunView('run-approved'));
    expect(state).toMatchObject({ planApproved: true, mode: 'agent', todos: [{ id: 'a', content: 'Edit', status: 'pending' }] });
    expect(state.approvals).toEqual([expect.objectContaining({ kind: 'tool', toolName: 'run_terminal_cmd', status: 'denied', decision: { approved: false, reason: 'no push', by: 'sdk' } })]);
    const shell = state.items.find((item) => item.kind === 'tool');
    expect(shell).toMatchObject({ name: 'run_terminal_cmd', toolType: 'shell', status: 'error', args: { command: 'git push origin main' } });
  });

  it('is waiting for approval exactly while the request is open', () => {
    const requested = approvedRun.findIndex((event) => event.kind === 'update' && event.update.type === 'approval-requested');
    const waiting = approvedRun.slice(0, requested + 1).reduce(runViewReducer, initialRunView('run-approved'));
    expect(waiting.approvals[0]?.status).toBe('pending');
    expect(waiting.items.find((item) => item.kind === 'tool')).toMatchObject({ status: 'awaiting-approval' });
  });

  it('rebuilds the same conversation from any mix of chunks, overlaps and repeats', () => {
    const actions = (runId: string, events: RunStreamEvent[]) => events.map((event) => ({ type: 'run-event' as const, runId, event }));
    const straight = [...actions('run-plan', planRun), ...actions('run-approved', approvedRun)].reduce(conversationReducer, emptyConversation);
    // The second run first, cut in three with overlapping resends, interleaved with the first.
    const a = actions('run-approved', approvedRun);
    const p = actions('run-plan', planRun);
    const shuffled = [...a.slice(0, 12), ...p.slice(0, 20), ...a.slice(8, 25), ...p.slice(15), ...a.slice(20), ...a, ...p].reduce(conversationReducer, emptyConversation);
    expect(runsOf(shuffled).map((run) => run.runId).sort()).toEqual(['run-approved', 'run-plan']);
    expect(shuffled.runs).toEqual(straight.runs);
  });
});
