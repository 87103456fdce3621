// Ports the reference SDK's "Resuming agents", "Reattach to an existing agent", "Conversation context", "Agent.listRuns()",
// "Agent.getRun()", "Agent.cancelRun()", "Agent.getUsage()", "Cloud agent lifecycle" (archive / unarchive / delete, locally),
// "Resource management" and "Dispatcher pattern" sections.
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeProviderServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent, type AgentOptions, Cairn, type CairnAgent, ConfigurationError, createCairn, createMemoryStore, createSqliteStore, registry,
  type Run,
} from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { fakeServers, providerOptions } from './fake-provider-agent.js';
import { oneCasePerWire } from './wire-inspection.js';

const startServer = fakeServers();
const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;
const root = mkdtempSync(join(tmpdir(), 'cairn-conformance-lifecycle-'));
const databasePath = () => join(root, `${crypto.randomUUID()}.db`);

/** Everything but the model: what a resume passes to reach the same provider. */
function connection(provider: ProviderCase, server: FakeProviderServer): Omit<ReturnType<typeof providerOptions>, 'model'> {
  const { model: _model, ...rest } = providerOptions(provider, server);
  return rest;
}

/** A second Cairn instance over the SDK's registry: its own lease owner, as another process would have. */
const anotherProcess = () => createCairn({ registry });

/** Resolves once the run's stream shows the tool call of `name` running. */
async function toolRunning(run: Run, name: string): Promise<void> {
  for await (const message of run.stream()) if (message.type === 'tool_call' && message.name === name && message.status === 'running') return;
  throw new Error(`the run ended before ${name} ran`);
}

const sleepCall = { reasoning: 'Wait for the deploy.', toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 30' } }] };

afterEach(() => {
  Cairn.configure({ local: { store: null } });
});

describe.each(oneCasePerWire(providerCases))('Resuming agents through $name', (provider) => {
  it('Agent.resume from a new Cairn instance over the same SQLite store continues the conversation; agent.model is undefined until a send sets it', async () => {
    const server = await startServer(provider, [{ text: 'Noted: the code is 4217.' }, { text: 'You told me 4217.' }, { text: 'Still 4217.' }]);
    const path = databasePath();
    const firstStore = createSqliteStore({ path });
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await makeWorkspace(), store: firstStore } });
    const first = await (await agent.send('Remember the code 4217')).wait();
    await agent.close();
    firstStore.close();

    // A restarted process: another Cairn instance, another store object on the same file.
    const later = anotherProcess();
    const store = createSqliteStore({ path });
    try {
      await using resumed = await later.Agent.resume(agent.agentId, { ...connection(provider, server), local: { store } });
      expect(resumed.agentId).toBe(agent.agentId);
      expect(resumed.model).toBeUndefined();
      const run = await resumed.send('What was the code?');
      const result = await run.wait();
      expect(result).toMatchObject({ status: 'finished', result: 'You told me 4217.' });
      // The stored selection still drives the run.
      expect(result.model).toEqual(first.model);
      const request = JSON.stringify(server.requests[1]);
      expect(request).toContain('Remember the code 4217');
      expect(request).toContain('Noted: the code is 4217.');
      expect(request).toContain('What was the code?');

      // A send with a model sets agent.model (sticky, as on a created agent).
      const selection = { id: provider.model.id, ...(provider.model.params ? { params: provider.model.params } : {}) };
      await (await resumed.send('And now?', { model: selection })).wait();
      expect(resumed.model).toEqual(selection);

      // Passing model on resume shows it at once.
      const withModel = await later.Agent.resume(agent.agentId, { ...providerOptions(provider, server), local: { store } });
      expect(withModel.model).toEqual(provider.model);
      await withModel.close();
    } finally {
      store.close();
    }
    expect(server.problems).toEqual([]);
  });

  it('Agent.listRuns, Agent.getRun and Agent.cancelRun: a running run is cancelled by id', async () => {
    const server = await startServer(provider, [{ text: 'First.' }, sleepCall, { text: 'never reached' }]);
    const store = createMemoryStore();
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await makeWorkspace(), store } });
    const done = await agent.send('First');
    await done.wait();
    const run = await agent.send('Deploy and wait');
    await toolRunning(run, 'run_terminal_cmd');

    // The newest run comes first; a page of one has a cursor to the next.
    const page = await Agent.listRuns(agent.agentId, { runtime: 'local', store, limit: 1 });
    expect(page.items.map((item) => [item.id, item.status])).toEqual([[run.id, 'running']]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = await Agent.listRuns(agent.agentId, { store, cursor: page.nextCursor! });
    expect(rest.items.map((item) => item.id)).toEqual([done.id]);
    expect(rest.nextCursor).toBeUndefined();
    expect(await Agent.getRun(done.id, { runtime: 'local', store })).toMatchObject({ id: done.id, agentId: agent.agentId, status: 'finished', result: 'First.' });

    const started = Date.now();
    await Agent.cancelRun(run.id, { runtime: 'local', store });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await run.wait()).status).toBe('cancelled');
    expect(run.status).toBe('cancelled');
    expect((await Agent.getRun(run.id, { store })).status).toBe('cancelled');
    // The cancelled tool stopped the run: the model was not asked again.
    expect(server.requests).toHaveLength(2);
    // Cancelling an ended run by id is a no-op.
    await Agent.cancelRun(run.id, { store });
    expect(server.problems).toEqual([]);
    await agent.close();
  });
});

describe('Agent.cancelRun from another process', () => {
  it('cancels a run another Cairn instance is executing, through the shared SQLite store', async () => {
    const server = await startServer(chat, [sleepCall, { text: 'never reached' }]);
    const path = databasePath();
    const ownerStore = createSqliteStore({ path });
    const otherStore = createSqliteStore({ path });
    try {
      const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store: ownerStore } });
      const run = await agent.send('Deploy and wait');
      await toolRunning(run, 'run_terminal_cmd');
      const other = anotherProcess();
      expect((await other.Agent.getRun(run.id, { store: otherStore })).status).toBe('running');
      await other.Agent.cancelRun(run.id, { store: otherStore });
      expect((await run.wait()).status).toBe('cancelled');
      expect((await other.Agent.getRun(run.id, { store: otherStore })).status).toBe('cancelled');
      await agent.close();
    } finally {
      ownerStore.close();
      otherStore.close();
    }
  });
});

describe('Agent.getUsage()', () => {
  it('on a handle and by id: usage and cost summed across runs, one entry per run, runId restricts to one entry', async () => {
    const server = await startServer(chat, [{ text: 'one' }, { text: 'two' }]);
    const store = createMemoryStore();
    const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store } });
    const first = await (await agent.send('One')).wait();
    const second = await (await agent.send('Two')).wait();

    // The documented example, ported.
    const { usage, cost, runs } = await agent.getUsage();
    expect(usage.totalTokens).toBe(first.usage!.totalTokens + second.usage!.totalTokens);
    expect(cost).toEqual({ rawCostCents: expect.any(Number), chargedCents: expect.any(Number) });
    expect(cost!.chargedCents).toBeGreaterThan(0);
    expect(runs.map((run) => run.runId).sort()).toEqual([first.id, second.id].sort());
    for (const run of runs) {
      expect(run.usage).toEqual(run.runId === first.id ? first.usage : second.usage);
      expect(run.cost).toEqual({ rawCostCents: expect.any(Number), chargedCents: expect.any(Number) });
    }

    const byId = await Agent.getUsage(agent.agentId, { store });
    expect(byId.usage).toEqual(usage);
    const one = await Agent.getUsage(agent.agentId, { store, runId: first.id });
    expect(one.runs.map((run) => run.runId)).toEqual([first.id]);
    expect(one.usage).toEqual(first.usage);
    const onHandle = await agent.getUsage({ runId: second.id });
    expect(onHandle.runs.map((run) => run.runId)).toEqual([second.id]);
    expect(onHandle.usage).toEqual(second.usage);
    await expect(agent.getUsage({ runId: 'run-unknown' })).rejects.toThrow(ConfigurationError);
    await expect(Agent.getUsage(agent.agentId, { store, runId: 'run-unknown' })).rejects.toThrow(/has no run run-unknown/);
    await agent.close();
  });
});

describe('archive, unarchive and delete', () => {
  it('archive hides the agent from Agent.list and keeps its transcript readable; unarchive restores it; delete removes it', async () => {
    const server = await startServer(chat, [{ text: 'Archived soon.' }]);
    const store = createMemoryStore();
    const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store } });
    await (await agent.send('hello')).wait();
    const agentId = agent.agentId;
    await agent.close();

    await Agent.archive(agentId, { store });
    expect((await Agent.list({ runtime: 'local', store })).items.map((info) => info.agentId)).toEqual([]);
    expect(await Agent.get(agentId, { store })).toMatchObject({ agentId, archived: true });
    expect((await Agent.messages.list(agentId, { store })).map((message) => message.text)).toEqual(['hello', 'Archived soon.']);
    await Agent.unarchive(agentId, { store });
    expect((await Agent.list({ store })).items.map((info) => info.agentId)).toEqual([agentId]);
    await Agent.delete(agentId, { store });
    await expect(Agent.get(agentId, { store })).rejects.toThrow(ConfigurationError);
    await expect(Agent.resume(agentId, { ...connection(chat, server), local: { store } })).rejects.toThrow(ConfigurationError);
  });
});

describe('Resource management', () => {
  it('await using disposes the agent when the block exits; a disposed agent refuses to send', async () => {
    const server = await startServer(chat, [{ text: 'Inside the block.' }]);
    let escaped: CairnAgent | undefined;
    let run: Run | undefined;
    {
      await using agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
      escaped = agent;
      // Not awaited inside the block: disposal waits for the send to finish.
      run = await agent.send('Work inside the block');
    }
    expect(run.status).toBe('finished');
    expect(run.result).toBe('Inside the block.');
    await expect(escaped.send('After the block')).rejects.toThrow(ConfigurationError);
    await expect(escaped.send('After the block')).rejects.toThrow(/closed.*Agent\.resume/);
  });

  it('agent[Symbol.asyncDispose]() and close() dispose explicitly; close() starts disposal without awaiting it', async () => {
    const server = await startServer(chat, [{ text: 'Finished before closing.' }]);
    const store = createMemoryStore();
    const options: AgentOptions = { ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store } };
    const disposed = await Agent.create(options);
    await disposed[Symbol.asyncDispose]();
    await expect(disposed.send('hello')).rejects.toThrow(ConfigurationError);

    const closed = await Agent.create(options);
    const run = await closed.send('Finish this first');
    // Fire and forget, as the reference SDK's close(): void is called; the running send still completes.
    closed.close();
    await expect(closed.send('too late')).rejects.toThrow(ConfigurationError);
    expect((await run.wait()).status).toBe('finished');
    // Closing twice is harmless, and a closed agent is resumed by id.
    await closed.close();
    const again = await Agent.resume(closed.agentId, { ...connection(chat, server), local: { store } });
    expect((await (await again.send('Back again')).wait()).status).toBe('finished');
    await again.close();
  });

  it('reload() picks up workspace changes without disposing the agent', async () => {
    const server = await startServer(chat, [{ text: 'ok' }]);
    const cwd = await makeWorkspace();
    await writeFile(join(cwd, 'AGENTS.md'), 'Answer in French.\n');
    const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store: createMemoryStore() } });
    await (await agent.send('hi')).wait();
    await writeFile(join(cwd, 'AGENTS.md'), 'Answer in German.\n');
    await agent.reload();
    expect((await (await agent.send('hi again')).wait()).status).toBe('finished');
    const systemPrompt = (body: Record<string, any>) => String(body.messages.find((message: any) => message.role === 'system')?.content);
    expect(systemPrompt(server.requests[0]!)).toContain('French');
    expect(systemPrompt(server.requests[1]!)).toContain('German');
    await agent.close();
  });
});

describe.each(oneCasePerWire(providerCases))('the Dispatcher pattern through $name', (provider) => {
  it('routes prompts by key to long-lived agents and resumes from the store once the map is lost', async () => {
    const server = await startServer(provider, [{ text: 'Hello, user one.' }, { text: 'Hello, user two.' }, { text: 'User one again.' }, { text: 'Resumed for user one.' }]);
    const store = createSqliteStore({ path: databasePath() });
    Cairn.configure({ local: { store } });
    const cwd = await makeWorkspace();
    try {
      // The documented dispatcher, ported (the provider connection added where the original reads CURSOR_API_KEY).
      const agents = new Map<string, CairnAgent>();
      async function getAgent(key: string, savedId?: string): Promise<CairnAgent> {
        const existing = agents.get(key);
        if (existing) return existing;
        const agent = savedId
          ? await Agent.resume(savedId, {
              ...connection(provider, server),
            })
          : await Agent.create({
              ...providerOptions(provider, server),
              local: { cwd },
            });
        agents.set(key, agent);
        return agent;
      }
      async function handleMessage(key: string, prompt: string, savedId?: string) {
        const agent = await getAgent(key, savedId);
        const run = await agent.send(prompt);
        return run.wait();
      }

      expect(await handleMessage('user-1', 'Hi, I am user one')).toMatchObject({ status: 'finished', result: 'Hello, user one.' });
      expect(await handleMessage('user-2', 'Hi, I am user two')).toMatchObject({ status: 'finished', result: 'Hello, user two.' });
      expect(await handleMessage('user-1', 'Still me')).toMatchObject({ status: 'finished', result: 'User one again.' });
      expect(agents.size).toBe(2);
      const savedId = agents.get('user-1')!.agentId;
      expect(savedId).not.toBe(agents.get('user-2')!.agentId);

      // A restart wiped the map: the saved id brings the same conversation back from the store.
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      agents.clear();
      const resumed = await handleMessage('user-1', 'Who am I?', savedId);
      expect(resumed).toMatchObject({ status: 'finished', result: 'Resumed for user one.', agentId: savedId });
      const request = JSON.stringify(server.requests[3]);
      expect(request).toContain('Hi, I am user one');
      expect(request).toContain('User one again.');
      expect(request).not.toContain('Hi, I am user two');
      await agents.get('user-1')!.close();
      expect(server.problems).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('two handles of one agent in one process queue their sends: no AgentBusyError, turns never interleave', async () => {
    const server = await startServer(provider, [{ text: 'The first answer, streamed slowly.' }, { text: 'The second answer.' }]);
    const store = createMemoryStore();
    const first = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await makeWorkspace(), store } });
    const second = await Agent.resume(first.agentId, { ...connection(provider, server), local: { store } });
    const order: string[] = [];
    const slowRun = await first.send('First question', {
      onDelta: async ({ update }) => {
        if (update.type === 'text-delta') await new Promise((resolve) => setTimeout(resolve, 20));
        if (update.type === 'turn-ended') order.push('first turn ended');
      },
    });
    // Sent while the first run is in flight, from the other handle.
    const queued = await second.send('Second question', {
      onDelta: ({ update }) => {
        if (update.type === 'step-started') order.push('second turn started');
      },
    });
    const results = await Promise.all([slowRun.wait(), queued.wait()]);
    expect(results.map((result) => result.status)).toEqual(['finished', 'finished']);
    expect(order).toEqual(['first turn ended', 'second turn started']);
    // The second request carries the whole first exchange.
    const request = JSON.stringify(server.requests[1]);
    expect(request).toContain('The first answer, streamed slowly.');
    expect(request).toContain('Second question');
    expect(server.problems).toEqual([]);
    await Promise.all([first.close(), second.close()]);
  });
});
