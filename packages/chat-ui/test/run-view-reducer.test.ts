import { describe, expect, it } from 'vitest';
import { initialRunView, type RunViewEvent, type RunViewState, runViewReducer } from '../src/state/index.js';
import { RunLog, tokens } from './support/run-log.js';

const replay = (events: RunViewEvent[], state: RunViewState = initialRunView('run-1')) => events.reduce(runViewReducer, state);

const editArgs = { path: 'src/add.ts', instructions: 'I fix the sum', code_edit: '// ... existing code ...\n  return a + b;\n// ... existing code ...' };
const editDiff = '===================================================================\n--- src/add.ts\n+++ src/add.ts\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n';

/** A whole run: thinking, text, an edit_file call with its reported diff, more text, the end. */
function editRun(): RunLog {
  return new RunLog()
    .start('Fix the sum in src/add.ts')
    .update({ type: 'step-started', stepId: 1, mode: 'agent' })
    .update({ type: 'thinking-delta', text: 'The sign ' })
    .update({ type: 'thinking-delta', text: 'is wrong.' })
    .update({ type: 'thinking-completed', thinkingDurationMs: 1200 })
    .message({ type: 'thinking', text: 'The sign is wrong.', thinking_duration_ms: 1200 })
    .update({ type: 'text-delta', text: 'I will ' })
    .update({ type: 'text-delta', text: 'fix `add`.' })
    .toolCall('call-1', 'edit_file', 'edit', editArgs)
    .endTurn([{ type: 'text', text: 'I will fix `add`.' }, { type: 'tool_use', id: 'call-1', name: 'edit_file', input: editArgs }])
    .runTool('call-1', 'edit_file', 'edit', editArgs, 'Edited src/add.ts: 1 region(s).', { path: 'src/add.ts', diff: editDiff })
    .update({ type: 'step-completed', stepId: 1, stepDurationMs: 900, finishReason: 'tool-calls' })
    .update({ type: 'step-started', stepId: 2, mode: 'agent' })
    .update({ type: 'text-delta', text: 'Done: ' })
    .update({ type: 'text-delta', text: '**fixed**.' })
    .endTurn([{ type: 'text', text: 'Done: **fixed**.' }], tokens(300, 30))
    .update({ type: 'step-completed', stepId: 2, stepDurationMs: 400, finishReason: 'stop' })
    .finish();
}

describe('runViewReducer', () => {
  it('turns a run with thinking, text and an edit into ordered items', () => {
    const state = replay(editRun().events);
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'thinking', 'assistant-text', 'tool', 'assistant-text']);
    const [user, thinking, first, tool, second] = state.items;
    expect(user).toMatchObject({ kind: 'user', text: 'Fix the sum in src/add.ts' });
    expect(thinking).toMatchObject({ kind: 'thinking', text: 'The sign is wrong.', open: false, durationMs: 1200 });
    expect(first).toMatchObject({ kind: 'assistant-text', text: 'I will fix `add`.', open: false });
    expect(second).toMatchObject({ kind: 'assistant-text', text: 'Done: **fixed**.', open: false });
    expect(tool).toMatchObject({ kind: 'tool', callId: 'call-1', name: 'edit_file', toolType: 'edit', status: 'completed', args: editArgs, result: 'Edited src/add.ts: 1 region(s).' });
    if (tool?.kind !== 'tool') throw new Error('no tool row');
    expect(tool.argsText).toBeUndefined();
    expect(tool.diff?.path).toBe('src/add.ts');
    expect(tool.diff?.fromArgs).toBeUndefined();
    expect(tool.diff?.lines).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'context', text: ' export function add(a, b) {' },
      { kind: 'remove', text: '-  return a - b;' },
      { kind: 'add', text: '+  return a + b;' },
      { kind: 'context', text: ' }' },
    ]);
    expect(state).toMatchObject({ status: 'finished', ended: true, mode: 'agent', model: { id: 'openai/gpt-5.2' } });
    // Two usage messages; turn-ended repeats each and is not counted again.
    expect(state.usage).toEqual(tokens(400, 50));
    expect(state.lastOffset).toBe(editRun().events.length);
  });

  it('shows a streaming tool call before it starts, then running', () => {
    const log = new RunLog().start('read it').toolCall('call-1', 'read_file', 'read', { path: 'a.ts' });
    const streaming = replay(log.events.slice(0, -1));
    expect(streaming.items.at(-1)).toMatchObject({ kind: 'tool', status: 'streaming', argsText: '{"path":"a' });
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'running', args: { path: 'a.ts' } });
  });

  it('keeps text that streams across many deltas in one open block', () => {
    const log = new RunLog().start('hi');
    for (const piece of ['Hel', 'lo ', 'wor', 'ld']) log.update({ type: 'text-delta', text: piece });
    const state = replay(log.events);
    expect(state.items).toEqual([
      { kind: 'user', id: 'user-3', text: 'hi' },
      { kind: 'assistant-text', id: 'assistant-text-5', text: 'Hello world', open: true },
    ]);
    expect(state.status).toBe('running');
  });

  it('computes the diff of a search_replace from its arguments', () => {
    const args = { path: 'b.ts', old_string: 'const x = 1;', new_string: 'const x = 2;' };
    const log = new RunLog().start('change x').toolCall('c', 'search_replace', 'edit', args).runTool('c', 'search_replace', 'edit', args, 'Replaced 1 occurrence.');
    const tool = replay(log.events).items.at(-1);
    expect(tool).toMatchObject({ kind: 'tool', status: 'completed', diff: { path: 'b.ts', fromArgs: true } });
    if (tool?.kind !== 'tool') throw new Error('no tool row');
    expect(tool.diff?.lines.filter((line) => line.kind !== 'context' && line.kind !== 'hunk')).toEqual([
      { kind: 'remove', text: '-const x = 1;' },
      { kind: 'add', text: '+const x = 2;' },
    ]);
  });

  it('shows no diff for a failed edit, and marks the row as an error', () => {
    const args = { path: 'b.ts', old_string: 'nope', new_string: 'yes' };
    const log = new RunLog()
      .start('change')
      .toolCall('c', 'search_replace', 'edit', args)
      .update({ type: 'tool-call-completed', callId: 'c', modelCallId: 'c', toolCall: { type: 'edit', name: 'search_replace', callId: 'c', args, status: 'error', result: 'old_string was not found', isError: true } });
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'error', isError: true, result: 'old_string was not found' });
    expect(replay(log.events).items.at(-1)).not.toHaveProperty('diff');
  });

  it('streams shell output into the running call', () => {
    const log = new RunLog()
      .start('test it')
      .toolCall('sh', 'run_terminal_cmd', 'shell', { command: 'npm test' })
      .update({ type: 'shell-output-delta', event: { callId: 'sh', stream: 'stdout', text: 'PASS a\n' } })
      .update({ type: 'shell-output-delta', event: { callId: 'sh', stream: 'stderr', text: 'warn\n' } });
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'running', output: 'PASS a\nwarn\n' });
  });

  it('keeps one live todo list per run, at the place it first appeared', () => {
    const todoArgs = { merge: false, todos: [{ id: '1', content: 'Write the test', status: 'in_progress' }] };
    const log = new RunLog()
      .start('plan the work')
      .toolCall('t1', 'todo_write', 'todo', todoArgs)
      .update({ type: 'todos-updated', todos: [{ id: '1', content: 'Write the test', status: 'in_progress' }, { id: '2', content: 'Fix it', status: 'pending' }] })
      .runTool('t1', 'todo_write', 'todo', todoArgs, '1 todo')
      .update({ type: 'text-delta', text: 'Working.' })
      .update({ type: 'todos-updated', todos: [{ id: '1', content: 'Write the test', status: 'completed' }, { id: '2', content: 'Fix it', status: 'in_progress' }] });
    const state = replay(log.events);
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'tool', 'todos', 'assistant-text']);
    expect(state.todos.map((todo) => todo.status)).toEqual(['completed', 'in_progress']);
  });

  it('records the plan and a pending plan approval, then its approval', () => {
    const plan = { name: 'Fix add', overview: 'Change the sign.', plan: '## Steps\n1. edit', todos: [{ id: 'a', content: 'Edit add', dependencies: [] }], createdAt: '2026-01-01T00:00:00Z', status: 'proposed' };
    const log = new RunLog()
      .start('plan it', 'plan')
      .update({ type: 'plan-created', plan })
      .update({ type: 'approval-requested', callId: 'mode-switch-2', kind: 'plan', reason: 'switch to agent mode to run the plan', modeSwitch: { from: 'plan', to: 'agent', explanation: 'ready', addedRights: ['edit'], plan } })
      .message({ type: 'status', status: 'RUNNING', phase: 'awaiting-approval', mode: 'plan', message: 'Waiting for approval: switch to agent mode.' });
    const waiting = replay(log.events);
    expect(waiting.items.map((item) => item.kind)).toEqual(['user', 'plan']);
    expect(waiting.plan).toEqual({ name: 'Fix add', overview: 'Change the sign.', body: '## Steps\n1. edit', steps: [{ id: 'a', content: 'Edit add', dependencies: [] }] });
    expect(waiting.approvals).toEqual([expect.objectContaining({ callId: 'mode-switch-2', kind: 'plan', status: 'pending' })]);
    expect(waiting.mode).toBe('plan');

    log
      .update({ type: 'approval-decided', callId: 'mode-switch-2', approved: true, by: 'sdk' })
      .update({ type: 'mode-changed', from: 'plan', to: 'agent', source: 'plan-approval' });
    const approved = replay(log.events);
    expect(approved.approvals[0]).toMatchObject({ status: 'approved', decision: { approved: true, by: 'sdk' } });
    expect(approved.plan?.decision).toBe('approved');
    expect(approved.items.find((item) => item.kind === 'plan')).toMatchObject({ plan: { decision: 'approved' } });
    expect(approved.mode).toBe('agent');
    expect(approved.items.at(-1)).toMatchObject({ kind: 'notice', text: 'Mode: plan → agent (plan approved)' });
  });

  it('marks a tool call awaiting approval, then running once allowed', () => {
    const args = { command: 'git push' };
    const log = new RunLog()
      .start('push')
      .toolCall('sh', 'run_terminal_cmd', 'shell', args)
      .endTurn([{ type: 'tool_use', id: 'sh', name: 'run_terminal_cmd', input: args }])
      .update({ type: 'approval-requested', callId: 'sh', kind: 'tool', reason: 'the command matches an ask rule (shell(git push*))', rule: 'shell(git push*)', toolName: 'run_terminal_cmd', args });
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'awaiting-approval' });
    log.update({ type: 'approval-decided', callId: 'sh', approved: true, by: 'sdk' });
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'running' });
    log.runTool('sh', 'run_terminal_cmd', 'shell', args, 'pushed');
    expect(replay(log.events).items.at(-1)).toMatchObject({ kind: 'tool', status: 'completed', result: 'pushed' });
  });

  it('denies what still waits when the run ends (the runtime sends no update for it)', () => {
    const log = new RunLog()
      .start('push')
      .update({ type: 'approval-requested', callId: 'sh', kind: 'tool', reason: 'ask rule', toolName: 'run_terminal_cmd', args: {} })
      .finish('CANCELLED');
    const state = replay(log.events);
    expect(state.approvals[0]).toMatchObject({ status: 'denied', decision: { by: 'run-ended' } });
    expect(state.status).toBe('cancelled');
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', text: 'Cancelled.' });
  });

  it('a tool call still running when the run is cancelled ends its row instead of spinning', () => {
    const log = new RunLog().start('wait').toolCall('sh', 'run_terminal_cmd', 'shell', { command: 'sleep 30' }).finish('CANCELLED');
    const state = replay(log.events);
    expect(state.items.find((item) => item.kind === 'tool')).toMatchObject({ status: 'error', isError: true, result: 'Cancelled before it finished.' });
    // The same from the end event alone (a log read before its final status arrived).
    const partial = new RunLog().start('wait').toolCall('sh', 'run_terminal_cmd', 'shell', { command: 'sleep 30' });
    const ended = replay([...partial.events, { kind: 'end', end: { status: 'cancelled', run: partial.run('cancelled') } }]);
    expect(ended.items.find((item) => item.kind === 'tool')).toMatchObject({ status: 'error' });
  });

  it('takes the final state from the end event', () => {
    const log = new RunLog().start('hi').update({ type: 'text-delta', text: 'Hi' }).endTurn([{ type: 'text', text: 'Hi' }]);
    const end = { kind: 'end' as const, end: { status: 'error' as const, run: log.run('error', { error: { message: 'provider down', code: 'provider_error' }, usage: tokens(999, 1) }) } };
    const state = replay([...log.events, end]);
    expect(state).toMatchObject({ status: 'error', ended: true, error: { message: 'provider down' }, usage: tokens(999, 1) });
    expect(state.items.at(-1)).toMatchObject({ kind: 'assistant-text', open: false });
  });

  it('reports an error status message with its text', () => {
    const state = replay(new RunLog().start('hi').finish('ERROR', { message: 'The model call failed.', code: 'provider_error' }).events);
    expect(state).toMatchObject({ status: 'error', error: { message: 'The model call failed.', code: 'provider_error' } });
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', level: 'error', text: 'The model call failed.' });
  });

  it('merges approval records from REST without undoing a decision the log made', () => {
    const log = new RunLog()
      .start('push')
      .update({ type: 'approval-requested', callId: 'sh', kind: 'tool', reason: 'ask rule', toolName: 'run_terminal_cmd', args: {} })
      .update({ type: 'approval-decided', callId: 'sh', approved: false, reason: 'no', by: 'sdk' });
    const stale = { runId: 'run-1', agentId: 'agent-1', callId: 'sh', kind: 'tool' as const, toolName: 'run_terminal_cmd', reason: 'ask rule', status: 'pending' as const, createdAt: 1 };
    const state = replay([...log.events, { kind: 'approvals', approvals: [stale] }]);
    expect(state.approvals).toEqual([expect.objectContaining({ callId: 'sh', status: 'denied' })]);

    // A REST answer before the update: the later update changes nothing.
    const answered = { ...stale, status: 'approved' as const, decision: { approved: true, by: 'sdk' }, decidedAt: 2 };
    const early = replay([...log.events.slice(0, 5), { kind: 'approvals', approvals: [answered] }, ...log.events.slice(5)]);
    expect(early.approvals).toEqual([expect.objectContaining({ callId: 'sh', status: 'approved' })]);
  });
});

describe('replay idempotency', () => {
  const events = editRun().events;
  const once = replay(events);

  it('ignores events at or before the last offset it applied', () => {
    expect(replay(events, once)).toBe(once);
  });

  it('rebuilds the same state from a replay after a reload', () => {
    expect(replay(events)).toEqual(once);
  });

  it('gives the same state when a reconnect overlaps what was seen', () => {
    const cut = 17;
    const first = replay(events.slice(0, cut));
    // A reconnect that resends a few events before the cut (a server or proxy replaying too much).
    const overlapped = replay(events.slice(cut - 5), first);
    expect(overlapped).toEqual(once);
  });

  it('gives the same state whether events come one by one or in any batching', () => {
    let state = initialRunView('run-1');
    for (const event of events) {
      state = runViewReducer(state, event);
      state = runViewReducer(state, event);
    }
    expect(state).toEqual(once);
  });

  it('never changes the state it was given', () => {
    const before = JSON.stringify(once);
    replay(new RunLog().start('again').events.map((event) => ({ ...event, offset: event.offset + 1000 })), once);
    expect(JSON.stringify(once)).toBe(before);
  });

  it('lets the REST record fill in the run before the log arrives, then follows the log', () => {
    const log = editRun();
    const state = replay([{ kind: 'run', run: log.run('running') }, ...log.events]);
    expect(state.status).toBe('finished');
    expect(state.items).toEqual(once.items);
  });
});
