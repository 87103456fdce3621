import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsServer, type ChatCompletionsTurn, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent, type AgentMessage, Cairn, ConfigurationError, createAgentPlatform, createMemoryStore, type ListResult, type LocalAgentStore, type SDKAgentInfo,
  type SDKArtifact,
} from '../../src/index.js';

// The "Inspecting agents and runs", "Artifacts" and "Prewarm a local workspace" examples of the
// reference SDK's documentation, ported (import, `Cursor` -> `Cairn`, model id), plus the shapes
// they return. Keys and base URLs come from process.env, pointed at a fake Chat Completions server.

const model = { id: 'openai/o4-mini' };
const root = mkdtempSync(join(tmpdir(), 'cairn-conformance-inspection-'));
const servers: ChatCompletionsServer[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let savedEnv: NodeJS.ProcessEnv;
let store: LocalAgentStore;

beforeAll(() => {
  savedEnv = { ...process.env };
  process.env.CAIRN_HOME = join(root, 'home');
  delete process.env.CAIRN_MODEL;
  process.on('unhandledRejection', onUnhandled);
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  process.env = savedEnv;
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  store = createMemoryStore();
  Cairn.configure({ local: { store, workspaceScanCacheTtlMs: null } });
});

afterEach(async () => {
  Cairn.configure({ local: { store: null, workspaceScanCacheTtlMs: null } });
  await Promise.all(servers.splice(0).map((server) => server.close()));
  // A host process dies of an unhandled rejection: none may come out of any of these calls.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(unhandled).toEqual([]);
});

async function openAIServer(turns: ChatCompletionsTurn[]): Promise<ChatCompletionsServer> {
  const server = await startChatCompletionsServer(turns);
  servers.push(server);
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
  return server;
}

const workspace = () => mkdtemp(join(root, 'workspace-'));
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Agent.list() and Agent.get()', () => {
  it('return SDKAgentInfo: name (or the first prompt), summary, lastModified, status, runtime, cwd, createdAt, archived', async () => {
    await openAIServer([{ text: 'It is a notes folder.\nMore detail follows.' }]);
    const cwd = await workspace();
    const unnamed = await Agent.create({ apiKey: process.env.OPENAI_API_KEY!, model, local: { cwd } });
    await (await unnamed.send('Summarize what this repository does\nand keep it short')).wait();
    await pause();
    const named = await Agent.create({ model, name: 'reviewer', local: { cwd } });

    // "Agent.list()", ported.
    // (The original lists process.cwd(); a test worker cannot change its cwd, so the workspace is named.)
    const { items, nextCursor } = await Agent.list({
      runtime: 'local',
      cwd,
    });
    expect(nextCursor).toBeUndefined();
    expect(items.map((info) => info.agentId)).toEqual([named.agentId, unnamed.agentId]);
    const info: SDKAgentInfo = items[1]!;
    expect(info).toMatchObject({
      agentId: unnamed.agentId,
      name: 'Summarize what this repository does',
      summary: 'It is a notes folder. More detail follows.',
      status: 'finished',
      runtime: 'local',
      cwd: unnamed.cwd,
      archived: false,
    });
    expect(info.createdAt).toBeTypeOf('number');
    expect(info.lastModified).toBeGreaterThanOrEqual(info.createdAt);
    // Cairn's own fields come after the documented ones.
    expect(info).toMatchObject({ mode: 'agent', latestRunStatus: 'finished' });

    // "Agent.get()", ported: the same shape.
    expect(await Agent.get(unnamed.agentId)).toEqual(info);
    const fresh = await Agent.get(named.agentId, { cwd });
    expect(fresh).toMatchObject({ name: 'reviewer', summary: '', runtime: 'local', archived: false });
    expect(fresh.status).toBeUndefined();
    await Promise.all([unnamed.close(), named.close()]);
  });

  it('status follows the latest run: error, cancelled (idle: finished), and a run a dead process left running (error)', async () => {
    const cwd = await workspace();
    // Nothing listens on port 9: the model call fails and the run ends in error.
    const failing = await Agent.create({ model, local: { cwd }, env: { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API: 'chat' }, retry: { maxAttempts: 1 } });
    expect((await (await failing.send('fail')).wait()).status).toBe('error');
    expect(await Agent.get(failing.agentId)).toMatchObject({ status: 'error', latestRunStatus: 'error' });

    await openAIServer([{ text: 'never read' }]);
    const cancelled = await Agent.create({ model, local: { cwd } });
    const run = await cancelled.send('stop at once');
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    expect(await Agent.get(cancelled.agentId)).toMatchObject({ status: 'finished', latestRunStatus: 'cancelled', summary: 'stop at once' });

    // A run row still "running" with no live lease behind it: its process is gone.
    const abandoned = await Agent.create({ model, local: { cwd } });
    const now = Date.now();
    await store.runs.create({
      runId: 'run-abandoned', agentId: abandoned.agentId, requestId: 'req-1', status: 'running', mode: 'agent', model: 'openai/o4-mini',
      prompt: 'left behind', createdAt: now, updatedAt: now, checkpointBefore: null,
    });
    expect(await Agent.get(abandoned.agentId)).toMatchObject({ status: 'error', latestRunStatus: 'running' });
    await store.agents.update(abandoned.agentId, { lease: { runId: 'run-abandoned', owner: 'another-process', expiresAt: now + 60_000 } });
    expect(await Agent.get(abandoned.agentId)).toMatchObject({ status: 'running' });
    await Promise.all([failing.close(), cancelled.close(), abandoned.close()]);
  });

  it('pages with limit and cursor, filters by the real path of cwd, and refuses cloud routing', async () => {
    const cwd = await workspace();
    const other = await workspace();
    const created = [];
    for (const folder of [cwd, other, cwd]) {
      created.push(await Agent.create({ model, local: { cwd: folder } }));
      await pause();
    }
    const newestFirst = created.map((agent) => agent.agentId).reverse();
    const first: ListResult<SDKAgentInfo> = await Agent.list({ limit: 2 });
    expect(first.items.map((info) => info.agentId)).toEqual(newestFirst.slice(0, 2));
    expect(first.nextCursor).toBeTypeOf('string');
    const second = await Agent.list({ limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((info) => info.agentId)).toEqual(newestFirst.slice(2));
    expect(second.nextCursor).toBeUndefined();

    // A symlink to the workspace names the same folder.
    const link = join(root, `link-${Date.now()}`);
    await symlink(cwd, link);
    expect((await Agent.list({ runtime: 'local', cwd: link })).items.map((info) => info.agentId)).toEqual([created[2]!.agentId, created[0]!.agentId]);
    await expect(Agent.get(created[1]!.agentId, { cwd })).rejects.toThrow(/works in/);

    await expect(Agent.list({ runtime: 'cloud' } as never)).rejects.toThrow(/cloud agents are out of scope/);
    await expect(Agent.get(created[0]!.agentId, { apiKey: 'key' } as never)).rejects.toThrow(ConfigurationError);
    await expect(Agent.list({ prUrl: 'https://fd.xuwubk.eu.org:443/https/example.com/pr/1' } as never)).rejects.toThrow(/does not know "prUrl"/);
    await Promise.all(created.map((agent) => agent.close()));
  });

  it('archive hides an agent from the list, unarchive restores it, delete removes it', async () => {
    const agent = await Agent.create({ model, local: { cwd: await workspace() } });
    await Agent.archive(agent.agentId);
    expect((await Agent.list()).items).toEqual([]);
    expect(await Agent.get(agent.agentId)).toMatchObject({ archived: true });
    await Agent.unarchive(agent.agentId);
    expect((await Agent.list()).items.map((info) => info.archived)).toEqual([false]);
    await Agent.delete(agent.agentId);
    await expect(Agent.get(agent.agentId)).rejects.toThrow(/No agent/);
    await agent.close();
  });
});

describe('Agent.messages.list()', () => {
  it('returns the stored user and assistant messages as text: no tool rounds, no context Cairn added', async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, 'notes.txt'), 'The code is 4217.\n');
    await openAIServer([
      { text: 'Let me look.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      { text: 'The code is 4217.' },
      { text: 'You asked for the code.' },
    ]);
    const agent = await Agent.create({ model, local: { cwd } });
    await (await agent.send('What is the code?')).wait();
    await (await agent.send('What did I ask?')).wait();

    // "Agent.messages.list()", ported.
    const messages: AgentMessage[] = await Agent.messages.list(agent.agentId, { runtime: 'local', cwd });
    expect(messages).toEqual([
      { index: 0, role: 'user', text: 'What is the code?' },
      { index: 1, role: 'assistant', text: 'Let me look.' },
      { index: 2, role: 'assistant', text: 'The code is 4217.' },
      { index: 3, role: 'user', text: 'What did I ask?' },
      { index: 4, role: 'assistant', text: 'You asked for the code.' },
    ]);
    expect(await Agent.messages.list(agent.agentId, { offset: 1, limit: 2 })).toEqual(messages.slice(1, 3));
    // The stored model conversation still has all of it (Cairn's own view).
    const stored = await Agent.messages.listModelMessages(agent.agentId);
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(JSON.stringify(stored[0])).toContain('<project_layout>');
    await expect(Agent.messages.list(agent.agentId, { limit: 0 })).rejects.toThrow(/limit must be a positive integer/);
    await agent.close();
  });
});

describe('artifacts', () => {
  it('listArtifacts() lists the files the agent wrote (not those it deleted); downloadArtifact() returns a Buffer of what it wrote', async () => {
    const cwd = await workspace();
    await writeFile(join(cwd, 'old.txt'), 'to be removed\n');
    const report = '# Report\n\nAll good.\n';
    await openAIServer([
      {
        text: 'Writing.',
        toolCalls: [
          { name: 'write', args: { path: 'out/report.md', contents: report } },
          { name: 'write', args: { path: 'scratch.txt', contents: 'temporary' } },
        ],
      },
      { toolCalls: [{ name: 'delete_file', args: { path: 'scratch.txt' } }] },
      { toolCalls: [{ name: 'delete_file', args: { path: 'old.txt' } }] },
      { text: 'Done.' },
    ]);
    const agent = await Agent.create({ model, local: { cwd } });
    expect((await (await agent.send('Write the report')).wait()).status).toBe('finished');

    // "Artifacts", ported.
    const artifacts: SDKArtifact[] = await agent.listArtifacts();
    for (const artifact of artifacts) {
      expect(typeof artifact.path).toBe('string');
      expect(typeof artifact.sizeBytes).toBe('number');
    }
    const buffer = await agent.downloadArtifact(artifacts[0]!.path);

    expect(artifacts).toEqual([{ path: 'out/report.md', sizeBytes: Buffer.byteLength(report), updatedAt: expect.any(String) }]);
    expect(new Date(artifacts[0]!.updatedAt).toISOString()).toBe(artifacts[0]!.updatedAt);
    expect(Buffer.isBuffer(buffer)).toBe(true);
    expect(buffer.toString('utf8')).toBe(report);
    expect((await agent.downloadArtifact(join(agent.cwd, 'out/report.md'))).equals(buffer)).toBe(true);
    expect((await agent.downloadArtifact('./out/report.md')).equals(buffer)).toBe(true);
    // The content is the agent's own write, kept in the store, even after the file changes on disk.
    await writeFile(join(cwd, 'out/report.md'), 'edited by hand');
    expect((await agent.downloadArtifact('out/report.md')).toString('utf8')).toBe(report);
    await expect(agent.downloadArtifact('scratch.txt')).rejects.toThrow(/deleted it/);
    await expect(agent.downloadArtifact('never-written.txt')).rejects.toThrow(ConfigurationError);
    expect(await readFile(join(cwd, 'out/report.md'), 'utf8')).toBe('edited by hand');
    await agent.close();
  });
});

describe('prewarm a local workspace', () => {
  it('createAgentPlatform() is awaited and prewarmLocalWorkspace() resolves to a release function', async () => {
    const cwd = await workspace();
    await mkdir(join(cwd, 'src'));
    await writeFile(join(cwd, 'src', 'auth.ts'), 'export function refreshToken() { return "token"; }\n');

    // "Prewarm a local workspace", ported.
    const platform = await createAgentPlatform();
    const release = await platform.prewarmLocalWorkspace({
      apiKey: 'sk-dummy',
      local: { cwd, settingSources: ['project'] },
    });
    // The first send() against this workspace starts immediately.
    expect(typeof release).toBe('function');
    await release.ready;
    // The codebase index was built for the workspace, where codebase_search opens it.
    expect((await readdir(join(process.env.CAIRN_HOME!, 'index'))).some((name) => name.endsWith('.sqlite'))).toBe(true);
    await release(); // on shutdown
    await release();
  });

  it('feeds the first send: with workspaceScanCacheTtlMs the prewarmed rules are the ones the send uses', async () => {
    const server = await openAIServer([{ text: 'ok' }]);
    const cwd = await workspace();
    await writeFile(join(cwd, 'AGENTS.md'), 'Prewarmed rule: answer briefly.\n');
    Cairn.configure({ local: { workspaceScanCacheTtlMs: 60_000 } });
    const platform = await createAgentPlatform();
    const release = await platform.prewarmLocalWorkspace({ model, local: { cwd, settingSources: ['project'] } });
    await writeFile(join(cwd, 'AGENTS.md'), 'A later rule.\n');
    const agent = await Agent.create({ model, local: { cwd, settingSources: ['project'] } });
    await (await agent.send('hi')).wait();
    const system = String(server.requests[0]!.messages[0].content);
    expect(system).toContain('Prewarmed rule');
    await agent.close();
    await release();
  });

  it('a bad workspace is a ConfigurationError from the call; a failure in the background never escapes', async () => {
    const platform = await createAgentPlatform();
    await expect(platform.prewarmLocalWorkspace({ local: { cwd: join(root, 'missing') } })).rejects.toThrow(ConfigurationError);
    await expect(platform.prewarmLocalWorkspace({ local: { cwd: join(root, 'missing') } })).rejects.toThrow(/does not exist/);
    await expect(platform.prewarmLocalWorkspace({ cwd: root } as never)).rejects.toThrow(/local: \{ cwd \}/);
    const cwd = await workspace();
    await expect(platform.prewarmLocalWorkspace({ local: { cwd, settingSources: ['team'] } })).rejects.toThrow(/not supported/);
    await mkdir(join(cwd, '.cairn'));
    await writeFile(join(cwd, '.cairn', 'permissions.json'), '{ not json');
    await expect(platform.prewarmLocalWorkspace({ local: { cwd, settingSources: ['project'] } })).rejects.toThrow(/permissions.json is not valid JSON/);
    await rm(join(cwd, '.cairn'), { recursive: true });

    // The folder disappears while the index syncs: release() still resolves, nothing is unhandled.
    const release = await platform.prewarmLocalWorkspace({ local: { cwd } });
    await rm(cwd, { recursive: true, force: true });
    await release.ready;
    await release();
    expect(existsSync(cwd)).toBe(false);
  });
});
