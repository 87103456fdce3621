import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { runStoreConformance } from '@cairn/core/testing/stores';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent, Cairn, ConfigurationError, composeLocalAgentStore, createMemoryStore, JsonlLocalAgentStore, type LocalAgentDocument, type LocalAgentRunDocument,
  type LocalAgentStore, type LocalAgentStoreAgents, type LocalAgentStoreCheckpoints, type LocalAgentStoreRunEvents, type LocalAgentStoreRuns,
  SqliteLocalAgentStore,
} from '../../src/index.js';

// The "Local agent stores" examples of the reference SDK's documentation, ported: the import,
// `Cursor` -> `Cairn` and the model id changed. Keys and the provider's base URL come from
// process.env as in the originals; each test points them at a fake Chat Completions server.

const model = { id: 'openai/o4-mini' };
const root = mkdtempSync(join(tmpdir(), 'cairn-conformance-stores-'));
const servers: ChatCompletionsServer[] = [];
let savedEnv: NodeJS.ProcessEnv;
let counter = 0;
const freshDir = (name: string) => join(root, `${name}-${++counter}`);
const workspace = () => mkdtemp(join(root, 'workspace-'));

beforeAll(() => {
  savedEnv = { ...process.env };
  // The SDK's default store (SQLite under $CAIRN_HOME) must not touch the real home.
  process.env.CAIRN_HOME = join(root, 'home');
  delete process.env.CAIRN_MODEL;
});

afterAll(() => {
  process.env = savedEnv;
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  Cairn.configure({ local: { store: null, workspaceScanCacheTtlMs: null } });
});

afterEach(async () => {
  Cairn.configure({ local: { store: null, workspaceScanCacheTtlMs: null } });
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake Chat Completions server answering `answers` in turn, as the only configured provider. */
async function openAIServer(...answers: string[]): Promise<ChatCompletionsServer> {
  const server = await startChatCompletionsServer(answers.map((text) => ({ text })));
  servers.push(server);
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
  return server;
}

const systemPromptOf = (body: Record<string, any>): string => String(body.messages.find((message: any) => message.role === 'system')?.content ?? '');

describe('JSONL store', () => {
  it('new JsonlLocalAgentStore(dir) on local.store writes the four NDJSON files; the same instance serves resume, list and get', async () => {
    const server = await openAIServer('This repository holds notes.', 'You asked what the repository does.');
    const dir = freshDir('jsonl');
    const cwd = await workspace();

    // "JSONL store", ported.
    const store = new JsonlLocalAgentStore(dir);
    const agent = await Agent.create({
      apiKey: process.env.OPENAI_API_KEY!,
      model,
      local: { cwd, store },
    });

    const run = await agent.send('Summarize what this repository does');
    expect((await run.wait()).status).toBe('finished');
    for (const file of ['agents.ndjson', 'runs.ndjson', 'run_events.ndjson', 'checkpoints.ndjson']) expect(existsSync(join(dir, file))).toBe(true);
    expect(await readFile(join(dir, 'agents.ndjson'), 'utf8')).toContain(agent.agentId);
    expect(await readFile(join(dir, 'runs.ndjson'), 'utf8')).toContain(run.id);

    // "Pass the same store instance on Agent.resume() and on the local list and get APIs".
    const { items } = await Agent.list({ runtime: 'local', cwd, store });
    expect(items.map((info) => info.agentId)).toEqual([agent.agentId]);
    expect(await Agent.get(agent.agentId, { store })).toMatchObject({ agentId: agent.agentId, status: 'finished', runtime: 'local' });
    expect((await Agent.listRuns(agent.agentId, { runtime: 'local', store })).items.map((listed) => listed.id)).toEqual([run.id]);
    expect(await Agent.getRun(run.id, { runtime: 'local', store })).toMatchObject({ id: run.id, status: 'finished', result: 'This repository holds notes.' });
    // Not in the SDK's default store: the reads really went to the one passed.
    await expect(Agent.get(agent.agentId)).rejects.toThrow(ConfigurationError);

    await agent.close();
    const resumed = await Agent.resume(agent.agentId, { local: { cwd, store } });
    const followUp = await resumed.send('What did I ask you?');
    expect(await followUp.wait()).toMatchObject({ status: 'finished', result: 'You asked what the repository does.' });
    // The second request carries the first exchange: the conversation continued from the JSONL checkpoints.
    const second = JSON.stringify(server.requests[1]?.messages);
    expect(second).toContain('Summarize what this repository does');
    expect(second).toContain('This repository holds notes.');
    await resumed.close();
    await store.close();

    // A new store object on the folder (a restarted process) reads the same agent back.
    const reopened = new JsonlLocalAgentStore(dir);
    expect((await Agent.messages.list(agent.agentId, { store: reopened })).map((message) => message.text)).toEqual([
      'Summarize what this repository does',
      'This repository holds notes.',
      'What did I ask you?',
      'You asked what the repository does.',
    ]);
    await reopened.close();
  });

  it('needs a folder path', () => {
    expect(() => new JsonlLocalAgentStore('')).toThrow(ConfigurationError);
    expect(() => new JsonlLocalAgentStore(undefined as unknown as string)).toThrow(/needs the folder/);
    expect(() => new JsonlLocalAgentStore(freshDir('jsonl'), { onWarn: () => undefined } as never)).toThrow(/does not know the option "onWarn"/);
  });
});

describe('a process-wide default store', () => {
  it('Cairn.configure({ local: { store } }) is used by calls that pass none; a per-call store wins; store: null returns to the default', async () => {
    await openAIServer('Done.');
    const cwd = await workspace();

    const dir = freshDir('default');
    const jsonl = new JsonlLocalAgentStore(dir);
    // "Set a process-wide default", ported (the store kept in a variable, to close it at the end).
    Cairn.configure({ local: { store: jsonl } });
    // Later calls use the configured store unless they pass their own.
    const agent = await Agent.create({
      apiKey: process.env.OPENAI_API_KEY!,
      model,
      local: { cwd },
    });
    expect((await (await agent.send('hello')).wait()).status).toBe('finished');
    expect((await Agent.list()).items.map((info) => info.agentId)).toEqual([agent.agentId]);
    expect(await Agent.get(agent.agentId)).toMatchObject({ agentId: agent.agentId, status: 'finished' });
    expect(await readFile(join(dir, 'agents.ndjson'), 'utf8')).toContain(agent.agentId);

    // Per-call local.store still wins.
    const own = createMemoryStore();
    const separate = await Agent.create({ model, local: { cwd, store: own } });
    expect(await own.agents.get(separate.agentId)).toBeDefined();
    expect((await Agent.list()).items.map((info) => info.agentId)).toEqual([agent.agentId]);
    expect((await Agent.list({ store: own })).items.map((info) => info.agentId)).toEqual([separate.agentId]);

    // store: null clears the default: the SDK's own store (SQLite under $CAIRN_HOME) again.
    Cairn.configure({ local: { store: null } });
    await expect(Agent.get(agent.agentId)).rejects.toThrow(/No agent/);
    const onDefault = await Agent.create({ model, local: { cwd } });
    expect((await Agent.list()).items.map((info) => info.agentId)).toContain(onDefault.agentId);
    expect(existsSync(join(process.env.CAIRN_HOME!, 'agents.db'))).toBe(true);
    await Promise.all([agent.close(), separate.close(), onDefault.close()]);
    await jsonl.close();
  });

  it('rejects what it cannot honour, and a rejected call changes nothing', async () => {
    await openAIServer('Done.');
    const configured = createMemoryStore();
    Cairn.configure({ local: { store: configured, useHttp1ForAgent: true } });
    // Cairn's model calls already use HTTP/1.1 (Node's fetch): true and null are facts; HTTP/2 is not available.
    expect(() => Cairn.configure({ local: { useHttp1ForAgent: null } })).not.toThrow();
    expect(() => Cairn.configure({ local: { store: createMemoryStore(), useHttp1ForAgent: false } })).toThrow(/HTTP\/2/);
    expect(() => Cairn.configure({ local: { workspaceScanCacheTtlMs: -1 } })).toThrow(ConfigurationError);
    expect(() => Cairn.configure({ local: { workspaceScanCacheTtlMs: 1.5 } })).toThrow(/whole number/);
    expect(() => Cairn.configure({ local: { store: { agents: {} } as unknown as LocalAgentStore } })).toThrow(/lacks agents.put/);
    expect(() => Cairn.configure({ local: { storeDir: '/tmp' } } as never)).toThrow(/does not know "storeDir"/);
    expect(() => Cairn.configure({ cloud: {} } as never)).toThrow(ConfigurationError);
    // Still the store of the last call that went through.
    const agent = await Agent.create({ model, local: { cwd: await workspace() } });
    expect(await configured.agents.get(agent.agentId)).toBeDefined();
    await agent.close();
  });
});

describe('the workspace scan cache', () => {
  it('workspaceScanCacheTtlMs reuses rules read within the TTL; null turns it off, so an edit applies at the next send', async () => {
    const server = await openAIServer('ok');
    const cwd = await workspace();
    await writeFile(join(cwd, 'AGENTS.md'), 'Always answer in French.\n');
    Cairn.configure({ local: { store: createMemoryStore(), workspaceScanCacheTtlMs: 60_000 } });

    const first = await Agent.create({ model, local: { cwd } });
    await (await first.send('hi')).wait();
    await writeFile(join(cwd, 'AGENTS.md'), 'Always answer in German.\n');
    const second = await Agent.create({ model, local: { cwd } });
    await (await second.send('hi')).wait();
    expect(systemPromptOf(server.requests[0]!)).toContain('French');
    // Within the TTL the scan of the first send is reused, by another agent of the same workspace too.
    expect(systemPromptOf(server.requests[1]!)).toContain('French');
    // Permission files are never cached: a broken one stops the very next send, TTL or not.
    await mkdir(join(cwd, '.cairn'));
    await writeFile(join(cwd, '.cairn', 'permissions.json'), '{ "deny": [');
    expect(await (await second.send('still there?')).wait()).toMatchObject({ status: 'error', error: { message: expect.stringContaining('permissions.json') } });
    await rm(join(cwd, '.cairn'), { recursive: true });

    Cairn.configure({ local: { workspaceScanCacheTtlMs: null } });
    await (await second.send('and now?')).wait();
    expect(systemPromptOf(server.requests.at(-1)!)).toContain('German');
    await Promise.all([first.close(), second.close()]);
  });
});

describe('custom stores', () => {
  it('composeLocalAgentStore combines substores of different backends: memory tables and a JSONL run-event log', async () => {
    const server = await openAIServer('First answer.', 'Second answer.');
    const cwd = await workspace();
    const memory = createMemoryStore();
    const log = new JsonlLocalAgentStore(freshDir('events'));
    // The documented substore types name each part.
    const myAgentsTable: LocalAgentStoreAgents = memory.agents;
    const myCheckpointBlobs: LocalAgentStoreCheckpoints = memory.checkpoints;
    const myRunsTable: LocalAgentStoreRuns = memory.runs;
    const myRunEventLog: LocalAgentStoreRunEvents = log.runEvents;

    // "Custom stores", ported.
    const store = composeLocalAgentStore({
      agents: myAgentsTable,
      checkpoints: myCheckpointBlobs,
      runs: myRunsTable,
      runEvents: myRunEventLog,
    });

    const agent = await Agent.create({ model, local: { cwd, store } });
    const run = await agent.send('first question');
    expect((await run.wait()).status).toBe('finished');
    // Rows in memory, the event log on disk.
    const row: LocalAgentDocument | undefined = await memory.agents.get(agent.agentId);
    const runRow: LocalAgentRunDocument | undefined = await memory.runs.get(run.id);
    expect(row?.checkpointRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(runRow?.status).toBe('finished');
    expect(await readFile(join(log.dir, 'run_events.ndjson'), 'utf8')).toContain(run.id);
    expect(existsSync(join(log.dir, 'agents.ndjson'))).toBe(false);
    // A stored run replays from the JSONL log.
    const types: string[] = [];
    for await (const message of (await Agent.getRun(run.id, { store })).stream()) types.push(message.type);
    expect(types).toEqual(expect.arrayContaining(['system', 'user', 'assistant', 'status']));

    await agent.close();
    const resumed = await Agent.resume(agent.agentId, { local: { cwd, store } });
    expect((await (await resumed.send('second question')).wait()).result).toBe('Second answer.');
    const second = JSON.stringify(server.requests[1]?.messages);
    expect(second).toContain('first question');
    expect(second).toContain('First answer.');
    await resumed.close();
    await log.close();
  });

  it('checks the parts up front and names what is missing', async () => {
    const memory = createMemoryStore();
    expect(() => composeLocalAgentStore({ agents: memory.agents, checkpoints: memory.checkpoints, runs: memory.runs } as never)).toThrow(/lack runEvents/);
    const { update: _update, ...partialRuns } = memory.runs;
    expect(() => composeLocalAgentStore({ ...memory, runs: partialRuns as never })).toThrow(/runs\.update/);
    expect(() => composeLocalAgentStore({ agents: memory.agents, checkpoints: memory.checkpoints, runs: memory.runs, runEvents: memory.runEvents, tables: {} } as never)).toThrow(
      /does not know "tables"/,
    );
    await expect(Agent.list({ store: { agents: memory.agents } as never })).rejects.toThrow(/lacks checkpoints/);
  });
});

// The class forms behave exactly like the factories: the whole store conformance suite, with reopen.
runStoreConformance('JsonlLocalAgentStore', () => new JsonlLocalAgentStore(freshDir('conformance-jsonl')), {
  async reopen(store) {
    const { dir } = store as JsonlLocalAgentStore;
    await store.close?.();
    return new JsonlLocalAgentStore(dir);
  },
});

runStoreConformance('SqliteLocalAgentStore', () => new SqliteLocalAgentStore(join(freshDir('conformance-sqlite'), 'agents.db')), {
  async reopen(store) {
    const { path } = store as SqliteLocalAgentStore;
    await store.close?.();
    return new SqliteLocalAgentStore(path);
  },
});

runStoreConformance('composeLocalAgentStore of memory and JSONL parts', () => {
  const memory = createMemoryStore();
  const jsonl = new JsonlLocalAgentStore(freshDir('conformance-composed'));
  return composeLocalAgentStore({ agents: memory.agents, checkpoints: jsonl.checkpoints, runs: memory.runs, runEvents: jsonl.runEvents, closes: [jsonl] });
});
