import { afterEach, describe, expect, it } from 'vitest';
import { RunFollowers } from '../src/session/run-followers.js';
import { type ConversationAction, CairnClient, type ConversationState, conversationReducer, emptyConversation, latestRun, pendingApprovals, runsOf } from '../src/index.js';
import { RunLog } from './support/run-log.js';
import { frame, startServer } from './support/sse-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

describe('conversationReducer', () => {
  it('keeps runs in creation order whatever order they load in, each reduced on its own', () => {
    const first = new RunLog('run-a');
    const second = new RunLog('run-b');
    first.start('one');
    second.start('two').update({ type: 'approval-requested', callId: 'c', kind: 'tool', reason: 'r', toolName: 'shell' });
    const actions: ConversationAction[] = [
      { type: 'run', run: second.run('running', { createdAt: 20 }) },
      ...second.events.map((event) => ({ type: 'run-event' as const, runId: 'run-b', event })),
      { type: 'run', run: first.run('finished', { createdAt: 10 }) },
      { type: 'batch', actions: first.events.map((event) => ({ type: 'run-event' as const, runId: 'run-a', event })) },
    ];
    const state = actions.reduce(conversationReducer, emptyConversation);
    expect(state.order).toEqual(['run-a', 'run-b']);
    expect(runsOf(state).map((run) => run.items[0])).toMatchObject([{ text: 'one' }, { text: 'two' }]);
    expect(latestRun(state)?.runId).toBe('run-b');
    expect(pendingApprovals(state)).toEqual([expect.objectContaining({ runId: 'run-b', callId: 'c' })]);
    // The same actions again (a replay) change nothing.
    expect(actions.reduce(conversationReducer, state)).toEqual(state);
  });

  it('starts empty for another agent', () => {
    const state: ConversationState = conversationReducer(emptyConversation, { type: 'run', run: new RunLog().run('running') });
    expect(conversationReducer(state, { type: 'reset', agentId: 'other' })).toEqual({ agentId: 'other', order: [], runs: {} });
  });
});

describe('RunFollowers', () => {
  it('follows the live run and replays finished ones into one conversation', async () => {
    const logs = { live: new RunLog('live').start('now'), old: new RunLog('old').start('before').finish() };
    const { url, close } = await startServer((request, response) => {
      const runId = request.url?.split('/')[3] as 'live' | 'old';
      const log = logs[runId];
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const frames = log.events.map((event) => frame(event.kind, event.kind === 'message' ? event.message : event.update, event.offset)).join('');
      response.end(frames + frame('end', { status: 'finished', run: log.run('finished') }));
    });
    closers.push(close);
    let state = emptyConversation;
    const ended: string[] = [];
    const states: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const followers = new RunFollowers(new CairnClient({ baseUrl: url, token: 't' }), {
        dispatch: (action) => (state = conversationReducer(state, action)),
        onConnection: (value) => states.push(value),
        onLiveEnd: (runId) => {
          ended.push(runId);
          resolve();
        },
        onError: reject,
      });
      followers.follow('old', false);
      followers.follow('live', true);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toEqual(['live']);
    expect(states).toEqual(['connecting', 'open', 'closed']);
    expect(state.runs.live?.status).toBe('finished');
    expect(state.runs.old?.items[0]).toMatchObject({ kind: 'user', text: 'before' });
  });
});
