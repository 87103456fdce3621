import { describe, expect, it } from 'vitest';
import { type AgentStore, composeStore, createMemoryStore, defineTool, type RunEvent, type TokenUsage } from '../src/index.js';
import { setup, tempWorkspace } from './helpers.js';

/** A memory store counting its writes; `withStepCommit: false` is the same store without `commitStep` (the fallback path). */
function countingStore(withStepCommit: boolean) {
  const inner = createMemoryStore();
  const writes: string[] = [];
  const counted = <Args extends unknown[], Result>(name: string, write: (...args: Args) => Result) => (...args: Args): Result => {
    writes.push(name);
    return write(...args);
  };
  const base = withStepCommit ? inner : { ...composeStore(inner), commitCheckpoint: inner.commitCheckpoint };
  const store: AgentStore = {
    ...base,
    runEvents: { ...inner.runEvents, append: counted('append', inner.runEvents.append) },
    runs: { ...inner.runs, update: counted('runs.update', inner.runs.update) },
    commitCheckpoint: counted('commitCheckpoint', inner.commitCheckpoint),
  };
  if (withStepCommit) store.commitStep = counted('commitStep', inner.commitStep);
  return { store, writes, inner };
}

const turns = [
  { text: 'one', toolCalls: [{ name: 'echo', args: { text: 'a' } }] },
  { text: 'two', toolCalls: [{ name: 'echo', args: { text: 'b' } }] },
  { text: 'done' },
];

async function runWith(withStepCommit: boolean) {
  const { store, writes, inner } = countingStore(withStepCommit);
  // What a reader of another process finds in the run row while the tool runs (after the calls' save).
  const usageSeenByTools: Array<TokenUsage | undefined> = [];
  const echo = defineTool({
    id: 'echo', name: 'echo', description: 'Echo the text back.', readOnly: true, category: 'custom',
    inputSchema: { jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    async execute({ text }: { text: string }, context) {
      usageSeenByTools.push((await inner.runs.get(context.runId))?.usage);
      return `echo: ${text}`;
    },
  });
  const { Agent, model } = setup(turns, [echo]);
  const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd: await tempWorkspace(), store } });
  writes.length = 0;
  const run = await agent.send('go');
  const result = await run.wait();
  model.assertComplete();
  const logged = (await inner.runEvents.list(run.id)).events;
  const agentRow = await inner.agents.get(agent.agentId);
  const record = await inner.runs.get(run.id);
  await agent.close();
  return { result, writes, logged, agentRow, record, usageSeenByTools };
}

/** An event without what differs between two runs (ids, times, durations). */
function shapeOf(event: RunEvent): unknown {
  return JSON.parse(JSON.stringify(event), (key, value) => (['agent_id', 'run_id', 'request_id', 'stepDurationMs', 'timestamp', 'createdAt', 'durationMs', 'thinking_duration_ms', 'cwd', 'session_id'].includes(key) ? undefined : value));
}

describe('a step\'s events go with its checkpoint (AgentStore.commitStep)', () => {
  it('writes each tool step in its two checkpoint commits, with the same events, in the same order, at the same offsets as separate writes', async () => {
    const folded = await runWith(true);
    const separate = await runWith(false);
    expect(folded.result.status).toBe('finished');
    expect(separate.result.status).toBe('finished');
    // Two tool steps: each saves its calls and, at the next step, its results (4 commits), and the final turn's one.
    expect(folded.writes.filter((write) => write === 'commitStep')).toHaveLength(5);
    expect(separate.writes.filter((write) => write === 'commitStep')).toHaveLength(0);
    expect(separate.writes.filter((write) => write === 'commitCheckpoint').length).toBeGreaterThanOrEqual(5);
    // The separate path appends each step's events on their own; the folded one only outside the steps' commits.
    expect(folded.writes.filter((write) => write === 'append').length).toBeLessThan(separate.writes.filter((write) => write === 'append').length);
    expect(folded.logged.map((event) => event.offset)).toEqual(folded.logged.map((_, index) => index + 1));
    expect(folded.logged.map((event) => shapeOf(event.event))).toEqual(separate.logged.map((event) => shapeOf(event.event)));
    // Each tool turn's usage goes to the run row in its calls' commit: two run-row writes fewer, the same totals.
    const runUpdates = (run: typeof folded) => run.writes.filter((write) => write === 'runs.update').length;
    expect(runUpdates(separate) - runUpdates(folded)).toBe(2);
    expect(folded.record?.usage?.totalTokens).toBeGreaterThan(0);
    expect(folded.record?.usage).toEqual(separate.record?.usage);
    // Mid-run the row holds the total so far, including the turn that called the tool, either way.
    expect(folded.usageSeenByTools).toHaveLength(2);
    expect(folded.usageSeenByTools).toEqual(separate.usageSeenByTools);
    expect(folded.usageSeenByTools[1]?.totalTokens).toBeGreaterThan(folded.usageSeenByTools[0]?.totalTokens ?? Number.POSITIVE_INFINITY);
    // The agent row points at the run's final checkpoint.
    for (const run of [folded, separate]) expect(run.agentRow?.checkpointRoot).toBe(run.record?.checkpointAfter);
  });
});
