import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentStore, backgroundRunInfo, createMemoryStore, defineTool, type RunEvent } from '../src/index.js';
import type { CairnAgent } from '../src/node.js';
import { echoTool, setup, tempWorkspace } from './helpers.js';

const model = 'scripted/scripted-model';

/** A dispatcher that only records what it was given: the tests play the worker. */
function recordingQueue() {
  const queued: Array<{ runId: string; agentId: string }> = [];
  return { queued, dispatch: async (run: { runId: string; agentId: string }) => void queued.push(run) };
}

async function backgroundAgent(store: AgentStore, queue: ReturnType<typeof recordingQueue>) {
  const sender = setup([{ text: 'unused' }]);
  const agent = await sender.Agent.create({ model, local: { cwd: await tempWorkspace(), store }, background: queue });
  return { sender, agent };
}

/** A worker: its own Cairn instance (another lease owner) with its own scripted model. */
async function workerAgent(store: AgentStore, agentId: string, turns: Parameters<typeof setup>[0], delayMs = 0): Promise<CairnAgent> {
  const { Agent } = setup(turns, [echoTool({ delayMs })]);
  return (await Agent.resume(agentId, { local: { store } })) as CairnAgent;
}

async function logOf(store: AgentStore, runId: string): Promise<RunEvent[]> {
  return (await store.runEvents.list(runId)).events.map((stored) => stored.event);
}

const updates = (events: RunEvent[], type: string) => events.filter((event) => event.kind === 'update' && event.update.type === type);

describe('background runs', () => {
  it('a send queues the run; a worker executes it; the sender streams and waits through the store', async () => {
    const store = createMemoryStore();
    const queue = recordingQueue();
    const { agent } = await backgroundAgent(store, queue);
    const run = await agent.send('say hi', { mode: 'agent' });
    expect(queue.queued).toEqual([{ runId: run.id, agentId: agent.agentId }]);
    const stored = await store.runs.get(run.id);
    expect(stored?.status).toBe('running');
    expect(backgroundRunInfo(stored ?? { metadata: {} })?.send).toEqual({ text: 'say hi', mode: 'agent' });
    expect((await store.agents.get(agent.agentId))?.lease).toBeNull();

    const worker = await workerAgent(store, agent.agentId, [{ text: 'hi from the worker' }]);
    const streamed = (async () => {
      const texts: string[] = [];
      for await (const message of run.stream()) if (message.type === 'assistant') texts.push(message.message.content.map((part) => ('text' in part ? part.text : '')).join(''));
      return texts;
    })();
    const outcome = await worker.executeQueuedRun(run.id);
    expect(outcome.kind).toBe('ended');
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'hi from the worker' });
    expect(await streamed).toEqual(['hi from the worker']);
    expect(await worker.executeQueuedRun(run.id)).toEqual({ kind: 'already-ended', status: 'finished' });
  });

  it('a run handed back mid-tool is resumed by another worker from its last complete step, with no duplicated event', async () => {
    const store = createMemoryStore();
    const queue = recordingQueue();
    const { agent } = await backgroundAgent(store, queue);
    const run = await agent.send('echo something');
    const first = await workerAgent(store, agent.agentId, [{ toolCalls: [{ name: 'echo', args: { text: 'slow' } }] }], 60_000);
    const handBack = new AbortController();
    const execution = first.executeQueuedRun(run.id, { handBack: handBack.signal });
    while (updates(await logOf(store, run.id), 'tool-call-started').length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    handBack.abort();
    expect(await execution).toEqual({ kind: 'handed-back' });
    expect((await store.runs.get(run.id))?.status).toBe('running');
    expect((await store.agents.get(agent.agentId))?.lease).toBeNull();

    const second = await workerAgent(store, agent.agentId, [{ text: 'resumed and done' }]);
    expect((await second.executeQueuedRun(run.id)).kind).toBe('ended');
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'resumed and done' });
    const events = await logOf(store, run.id);
    const started = updates(events, 'tool-call-started');
    const completed = updates(events, 'tool-call-completed');
    expect(started).toHaveLength(1);
    expect(completed).toHaveLength(1);
    const statuses = events.filter((event) => event.kind === 'message' && event.message.type === 'status');
    expect(statuses.some((event) => event.kind === 'message' && 'phase' in event.message && event.message.phase === 'resumed')).toBe(true);
    expect(statuses.filter((event) => event.kind === 'message' && 'status' in event.message && event.message.status === 'FINISHED')).toHaveLength(1);
    expect(updates(events, 'user-message-appended')).toHaveLength(1);
    expect(backgroundRunInfo((await store.runs.get(run.id)) ?? {})?.attempts).toBe(2);
  });

  it('a cancel of a queued run that no worker holds ends it at once; a worker then finds it ended', async () => {
    const store = createMemoryStore();
    const queue = recordingQueue();
    const { agent } = await backgroundAgent(store, queue);
    const run = await agent.send('never run');
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    const worker = await workerAgent(store, agent.agentId, [{ text: 'should not run' }]);
    expect(await worker.executeQueuedRun(run.id)).toEqual({ kind: 'already-ended', status: 'cancelled' });
  });

  it('finalize reports git branches onto the record before wait() resolves', async () => {
    const store = createMemoryStore();
    const queue = recordingQueue();
    const { agent } = await backgroundAgent(store, queue);
    const run = await agent.send('change something', { workspace: { git: { repoUrl: 'file:///tmp/origin.git', ref: 'main' } } });
    expect(backgroundRunInfo((await store.runs.get(run.id)) ?? {})?.workspace).toEqual({ git: { repoUrl: 'file:///tmp/origin.git', ref: 'main' } });
    const worker = await workerAgent(store, agent.agentId, [{ text: 'changed' }]);
    const branches = [{ repoUrl: 'file:///tmp/origin.git', branch: `cairn/${agent.agentId}` }];
    await worker.executeQueuedRun(run.id, { finalize: async () => ({ git: { branches } }) });
    expect((await run.wait()).git).toEqual({ branches });
    expect(run.git).toEqual({ branches });
    expect((await store.runs.get(run.id))?.git).toEqual({ branches });
  });

  it('a failing finalize ends the run error with its message', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, recordingQueue());
    const run = await agent.send('change something');
    const worker = await workerAgent(store, agent.agentId, [{ text: 'changed' }]);
    await worker.executeQueuedRun(run.id, { finalize: async () => { throw new Error('git push was rejected: non-fast-forward'); } });
    expect(await run.wait()).toMatchObject({ status: 'error', error: { message: 'git push was rejected: non-fast-forward' } });
  });

  it('options that only work in the sending process are refused for a background send, with what to do instead', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, recordingQueue());
    await expect(agent.send('x', { onDelta: () => undefined })).rejects.toThrow(/onDelta is not supported for a background agent.*run\.stream\(\)/);
    await expect(agent.send('x', { local: { force: true } })).rejects.toThrow(/local\.force is not supported/);
    await expect(agent.send('x', { workspace: { git: { repoUrl: '' } } })).rejects.toThrow(/workspace must be \{ git: \{ repoUrl/);
    await expect(agent.send('x', { workspace: { git: { repoUrl: 'file:///r.git', ref: '--upload-pack=evil' } } })).rejects.toThrow(/git ref name/);
  });

  it('a worker that resumes the agent in another folder (a clone) runs its tools there; the stored agent keeps its folder', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, recordingQueue());
    const run = await agent.send('where are you?');
    const seen: string[] = [];
    const where = defineTool({ id: 'where', name: 'where', description: 'Say the folder.', inputSchema: z.object({}), readOnly: true, category: 'custom', execute: async (_input, context) => {
      seen.push(context.cwd);
      return context.cwd;
    } });
    const clone = await realpath(await tempWorkspace('cairn-clone-'));
    const { Agent } = setup([{ toolCalls: [{ name: 'where', args: {} }] }, { text: 'here' }], [where]);
    const worker = (await Agent.resume(agent.agentId, { local: { store, cwd: clone } })) as CairnAgent;
    expect(worker.cwd).toBe(clone);
    await worker.executeQueuedRun(run.id);
    expect(seen).toEqual([clone]);
    expect((await store.agents.get(agent.agentId))?.cwd).toBe(agent.cwd);
    await expect(Agent.resume(agent.agentId, { local: { store, cwd: join(clone, 'missing') } })).rejects.toThrow(/does not exist/);
  });

  it('a worker on a machine without the agent folder refuses the run (the queue may try another worker) and takes no lease', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, recordingQueue());
    const run = await agent.send('x');
    const worker = await workerAgent(store, agent.agentId, [{ text: 'x' }]);
    await rm(agent.cwd, { recursive: true });
    await expect(worker.executeQueuedRun(run.id)).rejects.toThrow(/does not exist on this machine/);
    expect((await store.agents.get(agent.agentId))?.lease).toBeNull();
    expect((await store.runs.get(run.id))?.status).toBe('running');
  });

  it('a dispatcher that fails ends the run error and the send rejects', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, { queued: [], dispatch: async () => { throw new Error('queue is down'); } });
    await expect(agent.send('x')).rejects.toThrow('queue is down');
    const [run] = (await store.runs.list(agent.agentId)).items;
    expect(run).toMatchObject({ status: 'error', error: { code: 'dispatch_failed' } });
  });

  it('a worker taking over the same run from another process waits for the old lease (same run, other owner)', async () => {
    const store = createMemoryStore();
    const { agent } = await backgroundAgent(store, recordingQueue());
    const run = await agent.send('x');
    await store.agents.acquireLease(agent.agentId, { runId: run.id, owner: 'process-elsewhere:1@another-host', expiresAt: Date.now() + 60_000 });
    const worker = await workerAgent(store, agent.agentId, [{ text: 'x' }]);
    await expect(worker.executeQueuedRun(run.id)).rejects.toMatchObject({ code: 'agent_busy' });
  });
});
