import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createMemoryStore, type InteractionUpdate, type RunEvent } from '../src/index.js';
import { createCairn } from '../src/node.js';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';
import { mcpTool, type TestConnector, testConnector } from './mcp-test-connector.js';

const model = 'scripted/scripted-model';

/** `null`: no MCP plugin registered. */
function setup(turns: ScriptedTurn[], connector: TestConnector | null = testConnector()) {
  const scripted = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'test', providers: [scriptedProvider({ 'scripted-model': scripted })], ...(connector ? { mcp: connector } : {}) }] });
  return { Agent, scripted, connector: connector as TestConnector };
}

const offered = (call: { tools?: Array<{ name: string }> } | undefined) => (call?.tools ?? []).map((tool) => tool.name);
const docs = { command: 'fake', env: { DOCS_TOKEN: 'secret-token-123' } };

async function storedEvents(store: ReturnType<typeof createMemoryStore>, runId: string): Promise<RunEvent[]> {
  return (await store.runEvents.list(runId)).events.map((entry) => entry.event);
}

describe('mcpServers: checked by the registry connector', () => {
  it('are accepted at create, resume and send; a bad config is a ConfigurationError naming the server', async () => {
    const { Agent } = setup([{ text: 'ok' }]);
    const cwd = await tempWorkspace();
    const store = createMemoryStore();
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd, store } });
    await expect(Agent.create({ model, mcpServers: { broken: { args: [] } as never }, local: { cwd, store } })).rejects.toThrow(/Agent.create: MCP server "broken" in mcpServers cannot be used: "broken" needs a command/);
    await expect(Agent.resume(agent.agentId, { model, mcpServers: { broken: {} as never }, local: { store } })).rejects.toThrow(ConfigurationError);
    await expect(agent.send('hi', { mcpServers: { broken: {} as never } })).rejects.toThrow(/send: MCP server "broken"/);
    await expect(agent.send('hi', { mcpServers: [] as never })).rejects.toThrow(/mcpServers must be an object/);
    expect((await store.runs.list(agent.agentId)).items).toEqual([]);
  });

  it('without an MCP plugin, passing servers says to register mcpPlugin() of @cairn/tools-mcp', async () => {
    const { Agent } = setup([{ text: 'ok' }], null);
    const cwd = await tempWorkspace();
    const created = Agent.create({ model, mcpServers: { docs }, local: { cwd } });
    await expect(created).rejects.toThrow(ConfigurationError);
    await expect(created).rejects.toThrow(/mcpServers \(docs\) needs an MCP plugin.*mcpPlugin\(\) of @cairn\/tools-mcp/);
    const agent = await Agent.create({ model, local: { cwd } });
    await expect(agent.send('hi', { mcpServers: { docs } })).rejects.toThrow(/send: mcpServers \(docs\) needs an MCP plugin/);
    // An empty set (no servers for this send) needs no plugin.
    expect((await (await agent.send('hi', { mcpServers: {} })).wait()).status).toBe('finished');
  });

  it('names MCP tools in tools / disallowedTools (known only once servers start) only with an MCP plugin', async () => {
    const cwd = await tempWorkspace();
    await expect(setup([]).Agent.create({ model, disallowedTools: ['mcp__docs__search'], local: { cwd } })).resolves.toBeDefined();
    await expect(setup([], null).Agent.create({ model, disallowedTools: ['mcp__docs__search'], local: { cwd } })).rejects.toThrow(/unknown tool "mcp__docs__search"/);
  });
});

describe('the agent session', () => {
  it('is opened at the first run, with the workspace, env, home folders and the layers settingSources asks for', async () => {
    const { Agent, connector } = setup([{ text: 'one' }, { text: 'two' }]);
    const cwd = await tempWorkspace();
    const env = { HOME: '/home/someone', CAIRN_HOME: '/home/someone/cairn-home', PATH: process.env.PATH };
    const agent = await Agent.create({ model, mcpServers: { docs }, env, local: { cwd, settingSources: ['project'] } });
    expect(connector.opened).toEqual([]);
    await (await agent.send('one')).wait();
    await (await agent.send('two')).wait();
    expect(connector.opened).toHaveLength(1);
    expect(connector.opened[0]).toMatchObject({ agentId: agent.agentId, cwd: await realpath(cwd), env, projectServers: true, userServers: false, homeDir: '/home/someone', cairnHome: '/home/someone/cairn-home' });
    expect(connector.runs).toHaveLength(2);
  });

  it('loads file layers only when settingSources names them (user, all); without it only inline servers', async () => {
    const cwd = await tempWorkspace();
    const layers = async (settingSources: Array<'project' | 'user' | 'all'> | undefined) => {
      const { Agent, connector } = setup([{ text: 'ok' }]);
      const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd, ...(settingSources ? { settingSources } : {}) } });
      await (await agent.send('go')).wait();
      const { projectServers, userServers } = connector.opened[0]!;
      return { projectServers, userServers };
    };
    expect(await layers(undefined)).toEqual({ projectServers: false, userServers: false });
    expect(await layers(['user'])).toEqual({ projectServers: false, userServers: true });
    expect(await layers(['all'])).toEqual({ projectServers: true, userServers: true });
  });

  it('is never opened by an agent with no servers and no config-file layer', async () => {
    const { Agent, connector } = setup([{ text: 'ok' }, { text: 'again' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    await (await agent.send('go')).wait();
    await (await agent.send('go', { mcpServers: {} })).wait();
    await agent.close();
    expect(connector.opened).toEqual([]);
    expect(connector.closes).toBe(0);
  });

  it("calls forRun once per run before the first model call, with the send's servers, else the creation-time ones", async () => {
    const connector = testConnector({ docs: [mcpTool('docs', 'search')], issues: [mcpTool('issues', 'list')] });
    const { Agent, scripted } = setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }], connector);
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd: await tempWorkspace() } });
    await (await agent.send('a')).wait();
    await (await agent.send('b', { mcpServers: { issues: { command: 'fake' } } })).wait();
    await (await agent.send('c', { mcpServers: {} })).wait();
    expect(connector.runs.map((run) => [run.inline, run.origin])).toEqual([[['docs'], 'create'], [['issues'], 'send'], [[], 'send']]);
    expect(scripted.calls.map(offered)).toEqual([['mcp__docs__search'], ['mcp__issues__list'], []]);
  });

  it("a server that failed is a warning update (source mcp), stored with the run's events, and the run finishes", async () => {
    const connector = testConnector({ docs: [mcpTool('docs', 'search')] });
    connector.failing.add('flaky');
    const { Agent } = setup([{ text: 'finished anyway' }], connector);
    const store = createMemoryStore();
    const agent = await Agent.create({ model, mcpServers: { docs, flaky: { command: 'fake' } }, local: { cwd: await tempWorkspace(), store } });
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('go', { onDelta: ({ update }) => void updates.push(update) });
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'finished anyway' });
    const warning = { type: 'warning', source: 'mcp', server: 'flaky', message: 'MCP server "flaky" failed to start: it exited at once' };
    expect(updates.filter((update) => update.type === 'warning')).toEqual([warning]);
    const events = await storedEvents(store, run.id);
    expect(events.filter((event) => event.kind === 'update' && event.update.type === 'warning').map((event) => event.kind === 'update' && event.update)).toEqual([warning]);
    // After the init message, with the tools of the servers that did start.
    const init = events.findIndex((event) => event.kind === 'message' && event.message.type === 'system');
    expect(init).toBeLessThan(events.findIndex((event) => event.kind === 'update' && event.update.type === 'warning'));
    expect(events[init]).toMatchObject({ message: { tools: ['mcp__docs__search'] } });
    const status = events.find((event) => event.kind === 'message' && event.message.type === 'status' && event.message.message?.includes('flaky'));
    expect(status).toBeDefined();
  });

  it("re-reads the servers' tools at every step: a changed list shows at the next model call", async () => {
    const connector = testConnector({ docs: [mcpTool('docs', 'search')] });
    const { Agent, scripted } = setup(
      [
        () => {
          connector.servers.set('docs', [mcpTool('docs', 'search'), mcpTool('docs', 'fetch')]);
          return { toolCalls: [{ name: 'mcp__docs__search', args: { text: 'x' } }] };
        },
        { toolCalls: [{ name: 'mcp__docs__fetch', args: { text: 'y' } }] },
        { text: 'done' },
      ],
      connector,
    );
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd: await tempWorkspace() } });
    const run = await agent.send('go');
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'done' });
    expect(scripted.calls.map(offered)).toEqual([['mcp__docs__search'], ['mcp__docs__search', 'mcp__docs__fetch'], ['mcp__docs__search', 'mcp__docs__fetch']]);
    // Both calls ran: the tool added at run time was found at the step after the change.
    const lastPrompt = JSON.stringify(scripted.calls[2]!.prompt);
    expect(lastPrompt).toContain('search said x');
    expect(lastPrompt).toContain('fetch said y');
  });
});

describe('inline servers are not persisted; file servers survive resume', () => {
  it('the store holds no inline config; resume without them has no inline tools, with them it has', async () => {
    const connector = testConnector({ docs: [mcpTool('docs', 'search')], project: [mcpTool('project', 'lint')] });
    connector.fileServers = ['project'];
    const { Agent, scripted } = setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }], connector);
    const store = createMemoryStore();
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd: await tempWorkspace(), store, settingSources: ['project'] } });
    const first = await agent.send('one');
    await first.wait();
    await agent.close();
    const stored = JSON.stringify([await store.agents.get(agent.agentId), await store.runs.list(agent.agentId), await storedEvents(store, first.id)]);
    expect(stored).not.toContain('secret-token-123');
    expect(stored).not.toContain('"fake"');

    const without = await Agent.resume(agent.agentId, { local: { store, settingSources: ['project'] } });
    await (await without.send('two')).wait();
    await without.close();
    const withServers = await Agent.resume(agent.agentId, { mcpServers: { docs }, local: { store, settingSources: ['project'] } });
    await (await withServers.send('three')).wait();
    await withServers.close();
    expect(scripted.calls.map(offered)).toEqual([['mcp__docs__search', 'mcp__project__lint'], ['mcp__project__lint'], ['mcp__docs__search', 'mcp__project__lint']]);
  });
});

describe('lifecycle', () => {
  it('close() and await using close the session; reload() reloads it', async () => {
    const { Agent, connector } = setup([{ text: 'one' }, { text: 'two' }]);
    const cwd = await tempWorkspace();
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd } });
    await (await agent.send('one')).wait();
    await agent.reload();
    expect(connector.reloads).toBe(1);
    await agent.close();
    await agent.close();
    expect(connector.closes).toBe(1);
    {
      await using scoped = await Agent.create({ model, mcpServers: { docs }, local: { cwd } });
      await (await scoped.send('two')).wait();
    }
    expect(connector.closes).toBe(2);
  });

  it('a cancel while the servers start ends the run cancelled, with the start aborted', async () => {
    const connector = testConnector({ docs: [mcpTool('docs', 'search')] });
    connector.gate = new Promise<void>(() => {});
    const { Agent, scripted } = setup([{ text: 'never' }], connector);
    const agent = await Agent.create({ model, mcpServers: { docs }, local: { cwd: await tempWorkspace() } });
    const run = await agent.send('go');
    while (connector.runs.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    expect(connector.runs[0]!.signal.aborted).toBe(true);
    expect(scripted.calls).toEqual([]);
    await agent.close();
    expect(connector.closes).toBe(1);
  });
});
