// MCP servers through `Agent` end to end: the scripted model calls the tools of real servers from
// the npm registry and of the fixture server of @cairn/tools-mcp.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findServerProcesses, testTag } from '../../tools/mcp/test/helpers/server-processes.js';
import { createMemoryStore, type InteractionUpdate } from '../src/index.js';
import { expectNoServerLeft, isolatedEnv, mcpCairn, modelId, offered, resultsSeen, servers, startEverythingServer, tempFolder } from './mcp-helpers.js';

async function workspace() {
  const home = await tempFolder('cairn-mcp-home-');
  return { cwd: await tempFolder('cairn-mcp-workspace-'), env: isolatedEnv(home) };
}

describe('server-everything', () => {
  it('over stdio: its tools are offered, a call reaches the server, close leaves no process', async () => {
    const { Agent, model } = mcpCairn([{ toolCalls: [{ id: 'echo', name: 'mcp__everything__echo', args: { message: 'over stdio' } }] }, { text: 'done' }]);
    const { cwd, env } = await workspace();
    const agent = await Agent.create({ model: modelId, mcpServers: { everything: servers.everything() }, env, local: { cwd, store: createMemoryStore() } });
    expect(await (await agent.send('echo something')).wait()).toMatchObject({ status: 'finished', result: 'done' });
    expect(offered(model.calls[0])).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
    expect(resultsSeen(model.calls[1]).echo).toMatchObject({ isError: false, text: 'Echo: over stdio' });
    await agent.close();
    await expectNoServerLeft();
  });

  describe('over streamable HTTP', () => {
    let http: Awaited<ReturnType<typeof startEverythingServer>>;
    beforeAll(async () => {
      http = await startEverythingServer('streamableHttp');
    });
    afterAll(async () => {
      await http?.close();
    });

    it('a url server is used like a stdio one', async () => {
      const { Agent, model } = mcpCairn([{ toolCalls: [{ id: 'sum', name: 'mcp__remote__get-sum', args: { a: 2, b: 40 } }] }, { text: 'done' }]);
      const { cwd, env } = await workspace();
      await using agent = await Agent.create({ model: modelId, mcpServers: { remote: { url: `${http.url}/mcp` } }, env, local: { cwd, store: createMemoryStore() } });
      expect(await (await agent.send('add')).wait()).toMatchObject({ status: 'finished' });
      expect(resultsSeen(model.calls[1]).sum).toMatchObject({ isError: false, text: expect.stringContaining('42') });
    });
  });

  describe('over the legacy SSE transport', () => {
    let sse: Awaited<ReturnType<typeof startEverythingServer>>;
    beforeAll(async () => {
      sse = await startEverythingServer('sse');
    });
    afterAll(async () => {
      await sse?.close();
    });

    it('a type "sse" server is used like the others', async () => {
      const { Agent, model } = mcpCairn([{ toolCalls: [{ id: 'echo', name: 'mcp__legacy__echo', args: { message: 'over sse' } }] }, { text: 'done' }]);
      const { cwd, env } = await workspace();
      await using agent = await Agent.create({ model: modelId, mcpServers: { legacy: { type: 'sse', url: `${sse.url}/sse` } }, env, local: { cwd, store: createMemoryStore() } });
      expect(await (await agent.send('echo')).wait()).toMatchObject({ status: 'finished', result: 'done' });
      expect(resultsSeen(model.calls[1]).echo).toMatchObject({ isError: false, text: 'Echo: over sse' });
    });
  });
});

describe('server-filesystem over stdio', () => {
  it('writes in agent mode; in plan mode its writing tool is not offered and refused when called, its readOnlyHint tools run', async () => {
    const { cwd, env } = await workspace();
    await writeFile(join(cwd, 'notes.txt'), 'first line\n');
    const { Agent, model } = mcpCairn([
      { toolCalls: [{ id: 'write', name: 'mcp__files__write_file', args: { path: join(cwd, 'agent.txt'), content: 'from agent mode' } }] },
      { text: 'written' },
      {
        toolCalls: [
          { id: 'write', name: 'mcp__files__write_file', args: { path: join(cwd, 'plan.txt'), content: 'from plan mode' } },
          { id: 'read', name: 'mcp__files__read_text_file', args: { path: join(cwd, 'notes.txt') } },
        ],
      },
      { text: 'planned' },
    ]);
    await using agent = await Agent.create({ model: modelId, mcpServers: { files: servers.filesystem(cwd) }, env, local: { cwd, store: createMemoryStore() } });
    expect(await (await agent.send('write')).wait()).toMatchObject({ status: 'finished' });
    expect(await readFile(join(cwd, 'agent.txt'), 'utf8')).toBe('from agent mode');

    expect(await (await agent.send('plan it', { mode: 'plan' })).wait()).toMatchObject({ status: 'finished', result: 'planned' });
    expect(offered(model.calls[0])).toContain('mcp__files__write_file');
    expect(offered(model.calls[2])).toContain('mcp__files__read_text_file');
    expect(offered(model.calls[2])).not.toContain('mcp__files__write_file');
    const seen = resultsSeen(model.calls[3]);
    expect(seen.write).toMatchObject({ isError: true, text: expect.stringMatching(/plan mode only offers read-only MCP and custom tools/) });
    expect(seen.read).toMatchObject({ isError: false, text: expect.stringContaining('first line') });
    expect(existsSync(join(cwd, 'plan.txt'))).toBe(false);
  });
});

describe('the fixture server', () => {
  it('a tool added at run time (list_changed) is offered at a following step and runs', async () => {
    const state = await tempFolder('cairn-mcp-fixture-');
    const { Agent, model } = mcpCairn([
      { toolCalls: [{ id: 'add', name: 'mcp__fixture__add_tool', args: { name: 'late_tool' } }] },
      // One more round trip to the server: the re-listing it started on list_changed has answered by then.
      { toolCalls: [{ id: 'echo', name: 'mcp__fixture__echo', args: { text: 'between' } }] },
      { toolCalls: [{ id: 'late', name: 'mcp__fixture__late_tool', args: {} }] },
      { text: 'done' },
    ]);
    const { cwd, env } = await workspace();
    await using agent = await Agent.create({ model: modelId, mcpServers: { fixture: servers.fixture(state) }, env, local: { cwd, store: createMemoryStore() } });
    expect(await (await agent.send('grow')).wait()).toMatchObject({ status: 'finished', result: 'done' });
    expect(offered(model.calls[0])).not.toContain('mcp__fixture__late_tool');
    expect(offered(model.calls[2])).toContain('mcp__fixture__late_tool');
    expect(resultsSeen(model.calls[3]).late).toMatchObject({ isError: false, text: 'hello from late_tool' });
  });

  it('a crash mid-call is an error result; the run goes on with the restarted server', async () => {
    const state = await tempFolder('cairn-mcp-fixture-');
    const { Agent, model } = mcpCairn([
      { toolCalls: [{ id: 'crash', name: 'mcp__fixture__crash', args: {} }] },
      { toolCalls: [{ id: 'echo', name: 'mcp__fixture__echo', args: { text: 'after the crash' } }] },
      { text: 'survived' },
    ]);
    const { cwd, env } = await workspace();
    await using agent = await Agent.create({ model: modelId, mcpServers: { fixture: servers.fixture(state) }, env, local: { cwd, store: createMemoryStore() } });
    expect(await (await agent.send('crash it')).wait()).toMatchObject({ status: 'finished', result: 'survived' });
    expect(resultsSeen(model.calls[1]).crash).toMatchObject({ isError: true, text: expect.stringMatching(/crash|exit/i) });
    expect(resultsSeen(model.calls[2]).echo).toMatchObject({ isError: false, text: 'echo: after the crash' });
  });

  it('a server that fails to start is one warning; the run finishes with the other servers', async () => {
    const state = await tempFolder('cairn-mcp-fixture-');
    await writeFile(join(state, 'refuse-start'), 'yes');
    const { Agent, model } = mcpCairn([{ text: 'finished without it' }]);
    const { cwd, env } = await workspace();
    await using agent = await Agent.create({ model: modelId, mcpServers: { broken: servers.fixture(state), everything: servers.everything() }, env, local: { cwd, store: createMemoryStore() } });
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('go', { onDelta: ({ update }) => void updates.push(update) });
    expect(await run.wait()).toMatchObject({ status: 'finished', result: 'finished without it' });
    const warnings = updates.filter((update) => update.type === 'warning');
    expect(warnings).toEqual([{ type: 'warning', source: 'mcp', server: 'broken', message: expect.stringContaining('"broken"') }]);
    expect(offered(model.calls[0])).toContain('mcp__everything__echo');
    expect(offered(model.calls[0]).some((name) => name.startsWith('mcp__broken__'))).toBe(false);
  });

  it('a cancel while a server starts ends the run cancelled, and the half-started server is gone once the agent closes', async () => {
    const state = await tempFolder('cairn-mcp-fixture-');
    const { Agent, model } = mcpCairn([{ text: 'never' }]);
    const { cwd, env } = await workspace();
    const agent = await Agent.create({ model: modelId, mcpServers: { silent: servers.fixture(state, ['--silent'], { startupTimeoutMs: 60_000 }) }, env, local: { cwd, store: createMemoryStore() } });
    const run = await agent.send('go');
    while (findServerProcesses({ tag: testTag }).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    expect(model.calls).toEqual([]);
    await agent.close();
    await expectNoServerLeft();
  });
});
