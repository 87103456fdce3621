// Ports the reference SDK's "Restricting the toolset", "Errors", "AgentBusyError", "UnsupportedRunOperationError",
// "Subagents", "MCP servers", "Hooks", "SettingSource" and "Known limitations" sections.
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent, AgentBusyError, type AgentOptions, CairnAgentError, CairnError, CairnSdkError, ConfigurationError, createCairn, createMemoryStore,
  createSqliteStore, registry, type Run, UnsupportedRunOperationError,
} from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { collect, fakeServers, providerOptions } from './fake-provider-agent.js';
import { oneCasePerWire, wireOf } from './wire-inspection.js';

const startServer = fakeServers();
const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;
/** Options for checks that fail before any model call: nothing listens at this address. */
const offline = (): AgentOptions => ({ model: chat.model, env: chat.env('http://127.0.0.1:9/v1') });

/** The tool names the first request of a run offered, and the tool names its init message listed. */
async function offeredTools(provider: ProviderCase, options: Pick<AgentOptions, 'tools' | 'disallowedTools'>) {
  const server = await startServer(provider, [{ text: 'ok' }]);
  const agent = await Agent.create({ ...providerOptions(provider, server), ...options, local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
  const run = await agent.send('What can you do?');
  const messages = await collect(run.stream());
  expect((await run.wait()).error).toBeUndefined();
  expect(server.problems).toEqual([]);
  await agent.close();
  const init = messages.find((message) => message.type === 'system');
  return { offered: wireOf(provider).tools(server.requests[0]!).map((tool) => tool.name).sort(), listed: [...(init?.type === 'system' ? (init.tools ?? []) : [])].sort() };
}

describe.each(oneCasePerWire(providerCases))('Restricting the toolset through $name', (provider) => {
  it('tools: ["read", "grep", "glob", "ls"] offers exactly those; the init message lists the same', async () => {
    // "Read-only agent: only these tools are offered", ported.
    const { offered, listed } = await offeredTools(provider, { tools: ['read', 'grep', 'glob', 'ls'] });
    expect(offered).toEqual(['glob_file_search', 'grep', 'list_dir', 'read_file']);
    expect(listed).toEqual(offered);
  });

  it('disallowedTools: ["shell"] removes the shell and keeps the rest; tools: [] offers none; deny wins', async () => {
    const everything = await offeredTools(provider, {});
    const noShell = await offeredTools(provider, { disallowedTools: ['shell'] });
    expect(everything.offered).toContain('run_terminal_cmd');
    expect(noShell.offered).toEqual(everything.offered.filter((name) => name !== 'run_terminal_cmd'));
    expect(noShell.offered).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'grep']));
    expect((await offeredTools(provider, { tools: [] })).offered).toEqual([]);
    expect((await offeredTools(provider, { tools: ['read', 'grep'], disallowedTools: ['grep'] })).offered).toEqual(['read_file']);
  });
});

describe('Restricting the toolset: names and persistence', () => {
  it('unknown names throw a ConfigurationError at Agent.create and at Agent.resume', async () => {
    const cwd = await makeWorkspace();
    const store = createMemoryStore();
    for (const options of [{ tools: ['read', 'reed'] }, { disallowedTools: ['shel'] }]) {
      const created = Agent.create({ ...offline(), ...options, local: { cwd, store } });
      await expect(created).rejects.toThrow(ConfigurationError);
      await expect(created).rejects.toThrow(/unknown tool "(reed|shel)".*Known tools: .*read/);
    }
    const agent = await Agent.create({ ...offline(), local: { cwd, store } });
    await expect(Agent.resume(agent.agentId, { ...offline(), tools: ['reed'], local: { store } })).rejects.toThrow(ConfigurationError);
    await expect(Agent.resume(agent.agentId, { ...offline(), disallowedTools: ['shel'], local: { store } })).rejects.toThrow(/unknown tool "shel"/);
    expect((await store.agents.list()).items).toHaveLength(1);
  });

  it('tools: ["webSearch"] without a search backend says how to configure one; tools: ["task"] offers the task tool', async () => {
    const cwd = await makeWorkspace();
    const webSearch = Agent.create({ ...offline(), tools: ['webSearch'], local: { cwd, store: createMemoryStore() } });
    await expect(webSearch).rejects.toThrow(ConfigurationError);
    await expect(webSearch).rejects.toThrow(/web_search is not configured: give it a search backend: toolSettings: \{ webSearch: \{ backend/);
    await expect(Agent.create({ ...offline(), tools: ['read', 'task'], local: { cwd, store: createMemoryStore() } })).resolves.toBeDefined();
    // Disallowing the task tool takes subagents away: that is allowed too.
    await expect(Agent.create({ ...offline(), disallowedTools: ['task'], local: { cwd, store: createMemoryStore() } })).resolves.toBeDefined();
  });

  it('tools and disallowedTools are not persisted: a resume without them offers the whole toolset again', async () => {
    const server = await startServer(chat, [{ text: 'ok' }]);
    const store = createMemoryStore();
    const reader = await Agent.create({ ...providerOptions(chat, server), tools: ['read'], local: { cwd: await makeWorkspace(), store } });
    await (await reader.send('one')).wait();
    await reader.close();
    const { model: _model, ...connection } = providerOptions(chat, server);
    const unrestricted = await Agent.resume(reader.agentId, { ...connection, local: { store } });
    await (await unrestricted.send('two')).wait();
    const restricted = await Agent.resume(reader.agentId, { ...connection, tools: ['read'], local: { store } });
    await (await restricted.send('three')).wait();
    const offered = server.requests.map((body) => wireOf(chat).tools(body).map((tool) => tool.name));
    expect(offered[0]).toEqual(['read_file']);
    expect(offered[1]).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'run_terminal_cmd']));
    expect(offered[2]).toEqual(['read_file']);
    await Promise.all([unrestricted.close(), restricted.close()]);
  });
});

describe('Errors', () => {
  it('every SDK error extends CairnSdkError, exported also as CairnError and CairnAgentError (the same class)', async () => {
    expect(CairnAgentError).toBe(CairnSdkError);
    expect(CairnError).toBe(CairnSdkError);
    const configuration = await Agent.create({ ...offline(), tools: ['reed'], local: { cwd: await makeWorkspace(), store: createMemoryStore() } }).catch((error: unknown) => error);
    expect(configuration).toBeInstanceOf(ConfigurationError);
    expect(configuration).toBeInstanceOf(CairnSdkError);
    expect(configuration).toBeInstanceOf(CairnAgentError);
    expect(configuration).toMatchObject({ name: 'ConfigurationError', isRetryable: false, code: 'configuration_error' });
    expect((configuration as CairnSdkError).status).toBeUndefined();
    expect((configuration as CairnSdkError).requestId).toBeUndefined();

    const unsupported = new UnsupportedRunOperationError('cancel', 'the run has already ended (finished)');
    expect(unsupported).toBeInstanceOf(ConfigurationError);
    expect(unsupported).toBeInstanceOf(CairnSdkError);
    expect(unsupported).toMatchObject({ name: 'UnsupportedRunOperationError', operation: 'cancel', isRetryable: false, code: 'unsupported_operation' });
    expect(new AgentBusyError('agent-1', 'run-1')).toBeInstanceOf(CairnSdkError);
  });

  it('AgentBusyError: a run another process holds in the shared store; isRetryable false; the documented recovery works', async () => {
    const server = await startServer(chat, [
      { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 30' } }] },
      // The cancelled run never asks again: the next request is the retried send's.
      { text: 'Tests added.' },
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'cairn-conformance-busy-')), 'agents.db');
    const ownerStore = createSqliteStore({ path });
    const otherStore = createSqliteStore({ path });
    try {
      const owner = await Agent.create({ ...providerOptions(chat, server), local: { cwd: await makeWorkspace(), store: ownerStore } });
      const held = await owner.send('Deploy and wait');
      for await (const message of held.stream()) if (message.type === 'tool_call' && message.status === 'running') break;

      // Another process: its own Cairn instance and store object on the same database.
      const other = createCairn({ registry });
      const agent = await other.Agent.resume(owner.agentId, { ...providerOptions(chat, server), local: { store: otherStore } });
      let retried: Run | undefined;
      // The documented recovery, ported (runtime "local" and the store where the original says "cloud").
      try {
        await agent.send({ text: 'Also add tests for the auth middleware.' });
      } catch (err) {
        expect(err).toBeInstanceOf(AgentBusyError);
        expect(err).toBeInstanceOf(CairnSdkError);
        expect(err).toMatchObject({ name: 'AgentBusyError', isRetryable: false, code: 'agent_busy', agentId: owner.agentId, activeRunId: held.id });
        expect((err as AgentBusyError).message).toMatch(/force/);
        if (err instanceof AgentBusyError) {
          const runs = await other.Agent.listRuns(agent.agentId, { runtime: 'local', store: otherStore, limit: 1 });
          const active = runs.items[0];
          if (active?.status === 'running') {
            await active.cancel();
          }
          retried = await agent.send({ text: 'Also add tests for the auth middleware.' });
        }
      }
      expect(retried).toBeDefined();
      expect((await held.wait()).status).toBe('cancelled');
      expect(await retried!.wait()).toMatchObject({ status: 'finished', result: 'Tests added.' });
      await Promise.all([owner.close(), agent.close()]);
    } finally {
      ownerStore.close();
      otherStore.close();
    }
  });
});

describe('options Cairn does not support are refused, never ignored', () => {
  const mcpServers = { docs: { type: 'http' as const, url: 'https://fd.xuwubk.eu.org:443/https/example.com/mcp' } };
  const agents = { 'code-reviewer': { description: 'Reviews code.', prompt: 'Review code for bugs.', model: 'inherit' } };
  const cloud = { repos: [{ url: 'https://fd.xuwubk.eu.org:443/https/github.com/your-org/your-repo', startingRef: 'main' }] };

  it('cloud at Agent.create, Agent.resume and send is refused; agents and mcpServers are checked', async () => {
    const cwd = await makeWorkspace();
    const store = createMemoryStore();
    await expect(Agent.create({ ...offline(), agents: { bad: { description: 'No prompt.' } } as unknown as AgentOptions['agents'], local: { cwd, store } })).rejects.toThrow(ConfigurationError);
    await expect(Agent.create({ ...offline(), agents, local: { cwd, store: createMemoryStore() } })).resolves.toBeDefined();
    await expect(Agent.create({ ...offline(), mcpServers: { docs: { type: 'http', url: 'ftp://example.com' } }, local: { cwd, store } })).rejects.toThrow(/MCP server "docs"/);
    await expect(Agent.create({ ...offline(), cloud, local: { cwd, store } })).rejects.toThrow(/cloud agents .* are not supported/);
    await expect(Agent.create({ ...offline(), cloud } as AgentOptions)).rejects.toThrow(ConfigurationError);
    expect((await store.agents.list()).items).toEqual([]);

    const agent = await Agent.create({ ...offline(), mcpServers, local: { cwd, store } });
    for (const option of [{ cloud }]) {
      await expect(Agent.resume(agent.agentId, { ...offline(), ...option, local: { store } })).rejects.toThrow(ConfigurationError);
    }
    await expect(agent.send('hello', { mcpServers: { docs: { command: '' } } })).rejects.toThrow(/send: .*MCP server "docs"/);
    await expect(agent.send('hello', { cloud: { envVars: { DEPLOY_TOKEN: 'x' } } })).rejects.toThrow(ConfigurationError);
    // Nothing ran.
    expect((await store.runs.list(agent.agentId)).items).toEqual([]);
    await agent.close();
  });

  it('local.settingSources: "team", "mdm" and "plugins" name layers Cairn does not have', async () => {
    const cwd = await makeWorkspace();
    for (const source of ['team', 'mdm', 'plugins'] as const) {
      const created = Agent.create({ ...offline(), local: { cwd, store: createMemoryStore(), settingSources: ['project', source] } });
      await expect(created).rejects.toThrow(ConfigurationError);
      await expect(created).rejects.toThrow(new RegExp(`settingSources "${source}" is not supported.*Use "project", "user" or "all"`));
    }
  });

  it('a workspace .cursor/hooks.json: not loaded without settingSources; with ["project"] its hook runs', async () => {
    const server = await startServer(chat, [{ text: 'Plain run.' }, { text: 'Second run.' }]);
    const cwd = await makeWorkspace();
    await mkdir(join(cwd, '.cursor'), { recursive: true });
    await writeFile(join(cwd, '.cursor/hooks.json'), JSON.stringify({ version: 1, hooks: { beforeSubmitPrompt: [{ command: 'touch hook-ran' }] } }));
    const unloaded = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store: createMemoryStore() } });
    expect(await (await unloaded.send('hello')).wait()).toMatchObject({ status: 'finished', result: 'Plain run.' });
    expect(existsSync(join(cwd, 'hook-ran'))).toBe(false);
    await unloaded.close();

    const loaded = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store: createMemoryStore(), settingSources: ['project'] } });
    expect(await (await loaded.send('hello')).wait()).toMatchObject({ status: 'finished', result: 'Second run.' });
    expect(existsSync(join(cwd, 'hook-ran'))).toBe(true);
    expect(server.problems).toEqual([]);
    await loaded.close();
  });

  it('a workspace .cursor/mcp.json: not loaded without settingSources; with ["project"] its server is started', async () => {
    const server = await startServer(chat, [{ text: 'Plain run.' }, { text: 'Second run.' }]);
    const cwd = await makeWorkspace();
    await mkdir(join(cwd, '.cursor'), { recursive: true });
    await writeFile(join(cwd, '.cursor/mcp.json'), JSON.stringify({ mcpServers: { docs: { command: 'touch', args: ['mcp-ran'] } } }));
    const unloaded = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store: createMemoryStore() } });
    expect(await (await unloaded.send('hello')).wait()).toMatchObject({ status: 'finished', result: 'Plain run.' });
    expect(existsSync(join(cwd, 'mcp-ran'))).toBe(false);
    await unloaded.close();

    // `touch` is no MCP server: it runs, exits, and the run goes on with one warning.
    const loaded = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store: createMemoryStore(), settingSources: ['project'] } });
    const warnings: unknown[] = [];
    const run = await loaded.send('hello', { onDelta: ({ update }) => void (update.type === 'warning' && warnings.push(update)) });
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'Second run.' });
    expect(existsSync(join(cwd, 'mcp-ran'))).toBe(true);
    expect(warnings).toEqual([expect.objectContaining({ type: 'warning', source: 'mcp', server: 'docs' })]);
    expect(server.problems).toEqual([]);
    await loaded.close();
  });
});
