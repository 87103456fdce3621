import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnection } from '../src/connection/connection.js';
import { callTool, findTool, textOf, useConnections } from './helpers/connections.js';
import { eventually, fixtureConfig, removeFolder, scratchFolder } from './helpers/fixture-servers.js';
import { findServerProcesses, leftoverServerProcesses, testTag, testTagVariable } from './helpers/server-processes.js';

let stateDir: string;
beforeAll(() => {
  stateDir = scratchFolder();
});
afterAll(() => removeFolder(stateDir));

const connect = useConnections();
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
/** A tag of its own, for a test that counts its server processes. */
const ownTag = (name: string) => ({ [testTagVariable]: `${testTag}-${name}` });

describe('stdio connections', () => {
  it('starts the server, lists its tools as agent tools and calls one', async () => {
    const connection = connect('fx', fixtureConfig(stateDir));
    expect(connection.state).toBe('starting');
    await connection.start();
    expect(connection.state).toBe('ready');
    expect(connection.transport).toBe('stdio');
    expect(connection.instructions).toBe('Fixture server for tests.');
    const echo = findTool(connection, 'mcp__fx__echo');
    expect(echo).toMatchObject({ id: 'mcp__fx__echo', category: 'mcp', readOnly: true, description: 'Echo the text back.' });
    expect(echo.inputSchema).toEqual({ jsonSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false } });
    expect(echo.ruleSubject?.({})).toBe('fx:echo');
    expect(findTool(connection, 'mcp__fx__crash').readOnly).toBe(false);
    // No description: the title stands in.
    expect(findTool(connection, 'mcp__fx__add_tool').description).toBe('Add a tool at run time');
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'hi' }))).toBe('echo: hi');
  });

  it('is started once however many runs ask, and a caller that gives up does not stop the start', async () => {
    const tag = ownTag('once');
    const connection = connect('fx', fixtureConfig(stateDir, { env: tag }));
    const gaveUp = new AbortController();
    const first = connection.start(gaveUp.signal);
    gaveUp.abort(new Error('run cancelled'));
    await expect(first).rejects.toThrow('run cancelled');
    await Promise.all([connection.start(), connection.start()]);
    expect(connection.state).toBe('ready');
    expect(findServerProcesses({ tag: tag[testTagVariable] })).toHaveLength(1);
  });

  it('gives the server a minimal environment without provider keys, plus the env of its config', async () => {
    const home = join(stateDir, 'home');
    const agentEnv = {
      PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C', OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant',
      ANTHROPIC_BASE_URL: 'https://proxy.example', GOOGLE_API_KEY: 'g-key', GEMINI_API_KEY: 'gem-key', OPENAI_ORG_ID: 'org', MY_SERVICE_API_KEY: 'x', DATABASE_URL: 'postgres://u:p@h/db',
    };
    const connection = connect('fx', fixtureConfig(stateDir, { env: { GEMINI_API_KEY: 'named-in-config', EXTRA: 'yes' } }), { env: agentEnv });
    await connection.start();
    const report = (await callTool(connection, 'mcp__fx__env')).structuredContent as { env: Record<string, string> };
    expect(report.env).toMatchObject({ PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C', GEMINI_API_KEY: 'named-in-config', EXTRA: 'yes' });
    for (const secret of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GOOGLE_API_KEY', 'OPENAI_ORG_ID', 'MY_SERVICE_API_KEY', 'DATABASE_URL']) {
      expect(report.env[secret], secret).toBeUndefined();
    }
  });

  it('runs the server in the workspace, or in its config cwd (relative to the workspace)', async () => {
    const workspace = join(stateDir, 'workspace');
    mkdirSync(join(workspace, 'tools'), { recursive: true });
    const inWorkspace = connect('fx', fixtureConfig(stateDir), { cwd: workspace });
    const inCwd = connect('fx2', fixtureConfig(stateDir, { cwd: 'tools' }), { cwd: workspace });
    await Promise.all([inWorkspace.start(), inCwd.start()]);
    const cwdOf = async (connection: typeof inWorkspace, name: string) => ((await callTool(connection, name)).structuredContent as { cwd: string }).cwd;
    expect(await cwdOf(inWorkspace, 'mcp__fx__env')).toBe(realpathSync(workspace));
    expect(await cwdOf(inCwd, 'mcp__fx2__env')).toBe(realpathSync(join(workspace, 'tools')));
  });

  it('fails with a message that names the missing command or folder', async () => {
    const missing = connect('nope', { command: 'cairn-no-such-mcp-server', env: {} });
    await expect(missing.start()).rejects.toThrow('MCP server "nope" could not start: command "cairn-no-such-mcp-server" was not found: install it, or give its full path in "command".');
    expect(missing.state).toBe('failed');
    expect(missing.error).toContain('was not found');
    expect(missing.tools()).toEqual([]);
    // Idempotent: the same failure again, no second attempt.
    await expect(missing.start()).rejects.toThrow('was not found');

    const badCwd = connect('fx', fixtureConfig(stateDir, { cwd: 'no/such/folder' }));
    await expect(badCwd.start()).rejects.toThrow(/its working folder ".*no\/such\/folder" does not exist: fix "cwd" in its config/);
  });

  it('says what the process printed when it exits before answering', async () => {
    const connection = connect('fx', { command: process.execPath, args: ['-e', 'console.error("bad flag --foo"); process.exit(4)'] });
    await expect(connection.start()).rejects.toThrow(/could not start: its process exited with code 4; its last output: bad flag --foo before it answered/);
  });

  it('fails a server that does not finish starting within startupTimeoutMs, and kills it', async () => {
    const tag = ownTag('silent');
    const connection = connect('slow', fixtureConfig(stateDir, { args: ['--silent'], startupTimeoutMs: 400, env: tag }));
    await expect(connection.start()).rejects.toThrow('MCP server "slow" could not start: it did not finish starting within 0.4 s (startupTimeoutMs): raise startupTimeoutMs in its config if it is slow to start, e.g. while npx downloads it.');
    expect(connection.state).toBe('failed');
    expect(await leftoverServerProcesses({ tag: tag[testTagVariable] })).toEqual([]);
  });

  it('closing while the server starts ends the start and the process', async () => {
    const tag = ownTag('closing');
    const connection = connect('slow', fixtureConfig(stateDir, { args: ['--silent'], env: tag }));
    const starting = connection.start();
    await eventually(() => findServerProcesses({ tag: tag[testTagVariable] }).length > 0);
    await connection.close();
    await expect(starting).rejects.toThrow('could not start: it was closed while it was starting');
    expect(connection.state).toBe('closed');
    expect(await leftoverServerProcesses({ tag: tag[testTagVariable] })).toEqual([]);
    await expect(connection.start()).rejects.toThrow('MCP server "slow" was closed.');
  });
});

describe('calls that take too long', () => {
  it('cancels a call after callTimeoutMs with an error result, tells the server, and keeps the server', async () => {
    const dir = scratchFolder();
    const connection = connect('fx', fixtureConfig(dir, { callTimeoutMs: 300 }));
    await connection.start();
    expect(findTool(connection, 'mcp__fx__hang').timeoutMs).toBe(300 + 5000);
    const result = await callTool(connection, 'mcp__fx__hang');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('MCP server "fx" did not answer the call of "hang" within 0.3 s (callTimeoutMs), so the request was cancelled. Raise callTimeoutMs in the server\'s config if it needs longer.');
    expect(await eventually(() => existsSync(join(dir, 'cancelled')))).toBe(true);
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'still here' }))).toBe('echo: still here');
    removeFolder(dir);
  });

  it('a cancelled run cancels the request: the abort reaches the runtime, the server hears of it', async () => {
    const dir = scratchFolder();
    const connection = connect('fx', fixtureConfig(dir));
    await connection.start();
    const controller = new AbortController();
    const call = callTool(connection, 'mcp__fx__hang', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 100);
    await expect(call).rejects.toThrow('user cancelled');
    expect(await eventually(() => existsSync(join(dir, 'cancelled')))).toBe(true);
    expect(connection.state).toBe('ready');
    removeFolder(dir);
  });
});

describe('tools/list_changed', () => {
  it('lists the tools again and tells the session', async () => {
    const connection = connect('fx', fixtureConfig(stateDir));
    await connection.start();
    expect(connection.tools().some((tool) => tool.name === 'mcp__fx__late')).toBe(false);
    const changed = connection.toolsChanged();
    expect(textOf(await callTool(connection, 'mcp__fx__add_tool', { name: 'late' }))).toBe('added late');
    await changed;
    expect(textOf(await callTool(connection, 'mcp__fx__late'))).toBe('hello from late');
  });
});

describe('crashes', () => {
  it('restarts a crashed server once: the call gets an error result, the tools come back', async () => {
    const dir = scratchFolder();
    const connection = connect('fx', fixtureConfig(dir));
    await connection.start();
    const changed = connection.toolsChanged();
    const crashed = await callTool(connection, 'mcp__fx__crash');
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toBe('MCP server "fx" stopped (its process exited with code 3; its last output: fixture: crashing on purpose); it was restarted and its tools were listed again. The call was not repeated: call the tool again if that is safe. (during the call of "crash")');
    await changed;
    expect(connection.state).toBe('ready');
    expect(textOf(await callTool(connection, 'mcp__fx__echo', { text: 'again' }))).toBe('echo: again');

    const second = await callTool(connection, 'mcp__fx__crash');
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('It had been restarted once already, so it is not restarted again');
    expect(connection.state).toBe('failed');
    expect(connection.error).toContain('not restarted again');
    expect(connection.tools()).toEqual([]);
    removeFolder(dir);
  });

  it('says so when the restart fails, and the server is failed', async () => {
    const dir = scratchFolder();
    const connection = connect('fx', fixtureConfig(dir));
    await connection.start();
    const result = await callTool(connection, 'mcp__fx__crash', { refuse_restart: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/stopped \(its process exited with code 3.*\), and restarting it failed: .*exited with code 2; its last output: fixture: refusing to start .*Its tools are unavailable/s);
    expect(connection.state).toBe('failed');
    expect(connection.tools()).toEqual([]);
    removeFolder(dir);
  });
});

describe('no orphaned processes', () => {
  it('close kills the server and the processes it started', async () => {
    const dir = scratchFolder();
    const tag = ownTag('close');
    const connection = connect('fx', fixtureConfig(dir, { env: tag }));
    await connection.start();
    const grandchild = Number(textOf(await callTool(connection, 'mcp__fx__spawn_grandchild')));
    expect(isAlive(grandchild)).toBe(true);
    await connection.close();
    expect(connection.state).toBe('closed');
    expect(isAlive(grandchild)).toBe(false);
    expect(await leftoverServerProcesses({ tag: tag[testTagVariable] })).toEqual([]);
    removeFolder(dir);
  });

  it('a crash takes the processes the server started with it', async () => {
    const dir = scratchFolder();
    const connection = connect('fx', fixtureConfig(dir));
    await connection.start();
    const grandchild = Number(textOf(await callTool(connection, 'mcp__fx__spawn_grandchild')));
    await callTool(connection, 'mcp__fx__crash');
    expect(await eventually(() => !isAlive(grandchild))).toBe(true);
    removeFolder(dir);
  });

  it('a connection closed twice, or never started, closes quietly', async () => {
    const connection = createMcpConnection({ name: 'fx', config: fixtureConfig(stateDir), origin: 'user', cwd: process.cwd(), env: {} });
    await connection.close();
    await connection.close();
    expect(connection.state).toBe('closed');
  });
});
