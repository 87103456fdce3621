// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs with literal ${...} placeholders
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { McpProjectServer, McpRunRequest, McpServerConfig, McpServerState, McpSessionOptions, McpWarning, ToolDefinition } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpConnection, McpConnectionOptions } from '../src/connection/connection.js';
import { mcpServerConfigHash } from '../src/config/config-hash.js';
import { mcpPlugin } from '../src/plugin.js';
import { type McpSessionDependencies, openMcpSession } from '../src/session/mcp-session.js';

/** A connection that does what the test says: its tools, whether it fails, when its start ends. */
class TestConnection implements McpConnection {
  state: McpServerState = 'starting';
  error?: string;
  starts = 0;
  closes = 0;
  toolNames: string[];
  startSignal?: AbortSignal;
  private finishStart: () => void = () => {};
  private readonly startGate: Promise<void> | undefined;

  constructor(
    readonly options: McpConnectionOptions,
    behaviour: { tools?: string[]; fail?: string; holdStart?: boolean },
    private readonly failure = behaviour.fail,
  ) {
    this.toolNames = behaviour.tools ?? ['echo'];
    if (behaviour.holdStart) this.startGate = new Promise((resolve) => (this.finishStart = resolve));
  }

  get name() {
    return this.options.name;
  }
  get origin() {
    return this.options.origin;
  }
  get transport() {
    return 'url' in this.options.config ? ('http' as const) : ('stdio' as const);
  }

  releaseStart(): void {
    this.finishStart();
  }

  async start(signal?: AbortSignal): Promise<void> {
    this.starts += 1;
    this.startSignal = signal;
    await this.startGate;
    if (this.failure) {
      this.state = 'failed';
      this.error = this.failure;
      throw new Error(this.failure);
    }
    this.state = 'ready';
  }

  tools(): readonly ToolDefinition[] {
    return this.toolNames.map((tool) => ({
      id: 'mcp',
      name: `mcp__${this.name}__${tool}`,
      description: tool,
      inputSchema: { jsonSchema: { type: 'object' } },
      readOnly: true,
      category: 'mcp',
      execute: () => tool,
    }));
  }

  async close(): Promise<void> {
    this.closes += 1;
    this.state = 'closed';
  }
}

/** Records every connection made, with per-server behaviour. */
function connections(behaviour: Record<string, { tools?: string[]; fail?: string; holdStart?: boolean }> = {}) {
  const made: TestConnection[] = [];
  const createConnection: NonNullable<McpSessionDependencies['createConnection']> = (options) => {
    const connection = new TestConnection(options, behaviour[options.name] ?? {});
    made.push(connection);
    return connection;
  };
  const named = (name: string) => made.filter((connection) => connection.name === name);
  return { made, named, createConnection };
}

let root: string;
let base: McpSessionOptions;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-mcp-session-')));
  const cwd = join(root, 'repo');
  const homeDir = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  base = { agentId: 'agent-1', cwd, env: {}, projectServers: true, userServers: true, homeDir, cairnHome: join(homeDir, '.cairn') };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeServers(path: string, servers: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ mcpServers: servers }));
}

function request(inline?: Record<string, McpServerConfig>, signal = new AbortController().signal) {
  const warnings: McpWarning[] = [];
  const value: McpRunRequest = { inline, signal, warn: (warning) => warnings.push(warning) };
  return { value, warnings };
}

const toolNames = (tools: readonly ToolDefinition[]) => tools.map((tool) => tool.name);
const stdio = (command: string): McpServerConfig => ({ command });

describe('McpSession: one connection per server, shared by runs', () => {
  it('starts a server on the first run that uses it and shares it with later runs', async () => {
    const fake = connections();
    const session = openMcpSession(base, fake);
    const first = await session.forRun(request({ a: stdio('a') }).value);
    const second = await session.forRun(request({ a: stdio('a') }).value);
    expect(fake.made).toHaveLength(1);
    expect(fake.made[0]!.starts).toBe(1);
    expect(fake.made[0]!.options).toEqual({ name: 'a', config: { command: 'a' }, origin: 'create', cwd: base.cwd, env: base.env });
    expect(toolNames(first.tools())).toEqual(['mcp__a__echo']);
    expect(toolNames(second.tools())).toEqual(['mcp__a__echo']);
    await session.close();
  });

  it('a changed config under the same name is a new connection; a run without a server does not see its tools', async () => {
    const fake = connections();
    const session = openMcpSession(base, fake);
    const both = await session.forRun(request({ a: stdio('a'), b: stdio('b') }).value);
    const onlyA = await session.forRun(request({ a: stdio('a') }).value);
    const changedA = await session.forRun(request({ a: { command: 'a', args: ['--v2'] } }).value);
    expect(toolNames(both.tools())).toEqual(['mcp__a__echo', 'mcp__b__echo']);
    expect(toolNames(onlyA.tools())).toEqual(['mcp__a__echo']);
    expect(toolNames(changedA.tools())).toEqual(['mcp__a__echo']);
    expect(fake.named('a').map((connection) => connection.options.config)).toEqual([{ command: 'a' }, { command: 'a', args: ['--v2'] }]);
    await session.close();
  });

  it('starts the servers a run needs in parallel', async () => {
    const fake = connections({ a: { holdStart: true }, b: { holdStart: true } });
    const session = openMcpSession(base, fake);
    const run = session.forRun(request({ a: stdio('a'), b: stdio('b') }).value);
    await until(() => fake.made.length === 2);
    // Both starts are under way while neither has finished.
    expect(fake.made.map((connection) => connection.starts)).toEqual([1, 1]);
    for (const connection of fake.made) connection.releaseStart();
    expect(toolNames((await run).tools())).toEqual(['mcp__a__echo', 'mcp__b__echo']);
    await session.close();
  });

  it('a server that fails to start is one warning; the run gets the others', async () => {
    const fake = connections({ broken: { fail: 'spawn nope ENOENT' } });
    const session = openMcpSession(base, fake);
    const { value, warnings } = request({ broken: stdio('nope'), ok: stdio('ok') });
    const run = await session.forRun(value);
    expect(toolNames(run.tools())).toEqual(['mcp__ok__echo']);
    expect(warnings).toEqual([
      { server: 'broken', message: 'MCP server "broken" failed to start: spawn nope ENOENT. The run goes on without its tools (agent.reload() tries it again)' },
    ]);
    // Said again to the next run, which also goes without it; it is not restarted until reload().
    const next = request({ broken: stdio('nope'), ok: stdio('ok') });
    await session.forRun(next.value);
    expect(next.warnings.map((warning) => warning.server)).toEqual(['broken']);
    expect(fake.named('broken')).toHaveLength(1);
    await session.reload();
    await session.forRun(request({ broken: stdio('nope') }).value);
    expect(fake.named('broken')).toHaveLength(2);
    await session.close();
  });

  it('honours the run signal: an abort rejects forRun, the start goes on for later runs', async () => {
    const fake = connections({ slow: { holdStart: true } });
    const session = openMcpSession(base, fake);
    const controller = new AbortController();
    const run = session.forRun(request({ slow: stdio('slow') }, controller.signal).value);
    await until(() => fake.made.length === 1);
    controller.abort(new Error('cancelled by the user'));
    await expect(run).rejects.toThrow('cancelled by the user');
    expect(fake.made[0]!.startSignal?.aborted).toBe(false);
    fake.made[0]!.releaseStart();
    const later = await session.forRun(request({ slow: stdio('slow') }).value);
    expect(toolNames(later.tools())).toEqual(['mcp__slow__echo']);
    expect(fake.made).toHaveLength(1);
    await session.close();
    expect(fake.made[0]!.startSignal?.aborted).toBe(true);
  });

  it("a run's tools() reads the connections' current lists at each call", async () => {
    const fake = connections();
    const session = openMcpSession(base, fake);
    const run = await session.forRun(request({ a: stdio('a') }).value);
    expect(toolNames(run.tools())).toEqual(['mcp__a__echo']);
    fake.made[0]!.toolNames = ['echo', 'added_later'];
    expect(toolNames(run.tools())).toEqual(['mcp__a__echo', 'mcp__a__added_later']);
    fake.made[0]!.state = 'failed';
    expect(run.tools()).toEqual([]);
    await session.close();
  });

  it('an agent without servers never loads the connection module', async () => {
    const session = openMcpSession({ ...base, projectServers: false, userServers: false }, {
      createConnection: () => {
        throw new Error('no connection may be made');
      },
    });
    expect((await session.forRun(request(undefined).value)).tools()).toEqual([]);
    expect((await session.forRun(request({}).value)).tools()).toEqual([]);
    await session.close();
  });
});

describe('McpSession: where servers come from', () => {
  it('inline over project over user, by name: the higher one only', async () => {
    await writeServers(join(base.cwd, '.cursor/mcp.json'), { shared: stdio('project'), p: stdio('p') });
    await writeServers(join(base.homeDir, '.cursor/mcp.json'), { shared: stdio('user'), p: stdio('user-p'), u: stdio('u') });
    const fake = connections();
    const session = openMcpSession(base, fake);
    const run = await session.forRun(request({ shared: stdio('inline') }).value);
    expect(toolNames(run.tools())).toEqual(['mcp__shared__echo', 'mcp__p__echo', 'mcp__u__echo']);
    expect(fake.made.map((connection) => [connection.name, connection.origin, (connection.options.config as { command: string }).command])).toEqual([
      ['shared', 'create', 'inline'],
      ['p', 'project', 'p'],
      ['u', 'user', 'u'],
    ]);
    await session.close();
  });

  it('an inline server with a problem or an unset variable is one warning, and is left out', async () => {
    const fake = connections();
    const session = openMcpSession(base, fake);
    const { value, warnings } = request({ bad: { command: 'x', port: 1 } as McpServerConfig, secret: { url: 'https://e.com', headers: { A: '${env:TOKEN}' } }, ok: stdio('ok') });
    const run = await session.forRun(value);
    expect(toolNames(run.tools())).toEqual(['mcp__ok__echo']);
    expect(warnings.map((warning) => warning.server)).toEqual(['bad', 'secret']);
    expect(warnings[1]!.message).toContain('its config uses TOKEN, which is not set');
    await session.close();
  });

  it('a broken config file is a warning naming it, once per run, and the run goes on', async () => {
    const broken = join(base.cwd, '.mcp.json');
    await mkdir(base.cwd, { recursive: true });
    await writeFile(broken, '{ "mcpServers": ');
    const session = openMcpSession(base, connections());
    for (let run = 0; run < 2; run += 1) {
      const { value, warnings } = request();
      expect((await session.forRun(value)).tools()).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.server).toBe('');
      expect(warnings[0]!.message).toMatch(new RegExp(`^${escapeRegExp(broken)} is not valid JSON \\(`));
    }
    await session.close();
  });
});

describe('McpSession: trust of project servers', () => {
  it('asks about each project server with the hash of its config as written; false leaves it out with a warning', async () => {
    const file = join(base.cwd, '.cursor/mcp.json');
    const written = { command: 'npx', args: ['-y', 'tool'], env: { KEY: '${env:KEY}' } };
    await writeServers(file, { trusted: stdio('t'), untrusted: written });
    await writeServers(join(base.homeDir, '.cursor/mcp.json'), { mine: stdio('mine') });
    const asked: McpProjectServer[] = [];
    const fake = connections();
    const session = openMcpSession({ ...base, env: { KEY: 'secret-value' }, trustProjectServer: (server) => {
      asked.push(server);
      return server.name === 'trusted';
    } }, fake);
    const { value, warnings } = request();
    const run = await session.forRun(value);
    expect(toolNames(run.tools())).toEqual(['mcp__trusted__echo', 'mcp__mine__echo']);
    expect(asked).toEqual([
      { name: 'trusted', config: { command: 't' }, file, hash: mcpServerConfigHash({ command: 't' }) },
      { name: 'untrusted', config: written, file, hash: mcpServerConfigHash(written) },
    ]);
    expect(warnings).toEqual([{ server: 'untrusted', message: expect.stringContaining(`MCP server "untrusted" (in ${file}) was not started: it is not trusted for this workspace.`) }]);
    expect(warnings[0]!.message).toContain('approve it where your host asks');
    expect(fake.made.map((connection) => connection.name)).toEqual(['trusted', 'mine']);
    // Asked once per session; reload() asks again (the host may have been told to trust it meanwhile).
    await session.forRun(request().value);
    expect(asked).toHaveLength(2);
    await session.reload();
    await session.forRun(request().value);
    expect(asked).toHaveLength(4);
    await session.close();
  });

  it('a changed command is a new hash; a secret value is not', async () => {
    const file = join(base.cwd, '.mcp.json');
    const hashes: string[] = [];
    const trustProjectServer = (server: McpProjectServer) => {
      hashes.push(server.hash);
      return true;
    };
    await writeServers(file, { s: { command: 'npx', env: { T: '${T}' } } });
    for (const T of ['one', 'two']) {
      const session = openMcpSession({ ...base, env: { T }, trustProjectServer }, connections());
      await session.forRun(request().value);
      await session.close();
    }
    await writeServers(file, { s: { command: 'sh', env: { T: '${T}' } } });
    const session = openMcpSession({ ...base, env: { T: 'one' }, trustProjectServer }, connections());
    await session.forRun(request().value);
    await session.close();
    expect(hashes[0]).toBe(hashes[1]);
    expect(hashes[2]).not.toBe(hashes[0]);
  });

  it('without the project layer the project files are not read, and nothing of theirs starts', async () => {
    await writeServers(join(base.cwd, '.cursor/mcp.json'), { p: stdio('p') });
    const fake = connections();
    const session = openMcpSession({ ...base, projectServers: false }, fake);
    expect((await session.forRun(request().value)).tools()).toEqual([]);
    await session.reload();
    expect(session.status()).toEqual([]);
    expect(fake.made).toEqual([]);
    await session.close();
  });

  it('a trust check that throws counts as a refusal, with its error in the warning', async () => {
    await writeServers(join(base.cwd, '.cursor/mcp.json'), { p: stdio('p') });
    const session = openMcpSession({ ...base, trustProjectServer: () => Promise.reject(new Error('no terminal to ask')) }, connections());
    const { value, warnings } = request();
    await session.forRun(value);
    expect(warnings[0]!.message).toContain('was not started: the trust check failed (no terminal to ask)');
    await session.close();
  });
});

describe('McpSession: status, reload, close', () => {
  it('status() lists every server known, failed and not trusted ones with their error', async () => {
    const project = join(base.cwd, '.cursor/mcp.json');
    const user = join(base.homeDir, '.cursor/mcp.json');
    await writeServers(project, { good: stdio('good'), refused: stdio('refused'), typo: { command: 'x', arg: [] } });
    await writeServers(user, { down: { url: 'https://example.com/mcp' }, later: stdio('later') });
    const session = openMcpSession({ ...base, trustProjectServer: (server) => server.name !== 'refused' }, connections({ down: { fail: 'connect ECONNREFUSED' } }));
    expect(session.status()).toEqual([]);
    await session.forRun(request({ inline: stdio('inline') }).value);
    const status = session.status();
    expect(status.map(({ error, ...rest }) => rest)).toEqual([
      { name: 'inline', origin: 'create', transport: 'stdio', state: 'ready', tools: ['mcp__inline__echo'] },
      { name: 'good', origin: 'project', transport: 'stdio', state: 'ready', tools: ['mcp__good__echo'], file: project },
      { name: 'refused', origin: 'project', transport: 'stdio', state: 'failed', tools: [], file: project },
      { name: 'typo', origin: 'project', transport: 'stdio', state: 'failed', tools: [], file: project },
      { name: 'down', origin: 'user', transport: 'http', state: 'failed', tools: [], file: user },
      { name: 'later', origin: 'user', transport: 'stdio', state: 'ready', tools: ['mcp__later__echo'], file: user },
    ]);
    const errors = Object.fromEntries(status.map((entry) => [entry.name, entry.error]));
    expect(errors.refused).toContain('is not trusted for this workspace');
    expect(errors.typo).toContain('unknown field "arg"');
    expect(errors.down).toBe('connect ECONNREFUSED');
    expect(errors.good).toBeUndefined();
    await session.close();
  });

  it('status() after reload() lists the file servers without starting them', async () => {
    await writeServers(join(base.homeDir, '.cursor/mcp.json'), { u: stdio('u') });
    const fake = connections();
    const session = openMcpSession(base, fake);
    await session.reload();
    expect(session.status()).toEqual([{ name: 'u', origin: 'user', transport: 'stdio', state: 'closed', tools: [], file: join(base.homeDir, '.cursor/mcp.json') }]);
    expect(fake.made).toEqual([]);
    await session.close();
  });

  it('reload(): a changed file server is closed and restarted at its next use, a removed one is closed, the rest stay up', async () => {
    const file = join(base.cwd, '.cairn/mcp.json');
    await writeServers(file, { same: stdio('same'), changed: stdio('v1'), removed: stdio('removed') });
    const fake = connections();
    const session = openMcpSession(base, fake);
    await session.forRun(request({ inline: stdio('inline') }).value);
    await writeServers(file, { same: stdio('same'), changed: stdio('v2') });
    await session.reload();
    const closed = fake.made.filter((connection) => connection.closes > 0).map((connection) => connection.name);
    expect(closed).toEqual(['changed', 'removed']);
    expect(fake.named('changed')).toHaveLength(1);
    const run = await session.forRun(request({ inline: stdio('inline') }).value);
    expect(toolNames(run.tools())).toEqual(['mcp__inline__echo', 'mcp__same__echo', 'mcp__changed__echo']);
    expect(fake.named('changed').map((connection) => (connection.options.config as { command: string }).command)).toEqual(['v1', 'v2']);
    expect(fake.named('same')).toHaveLength(1);
    expect(fake.named('inline')).toHaveLength(1);
    await session.close();
  });

  it('close() closes every connection, waits for them, and is idempotent; later runs are refused', async () => {
    let releaseClose: () => void = () => {};
    const fake = connections();
    const session = openMcpSession(base, fake);
    await session.forRun(request({ a: stdio('a'), b: stdio('b') }).value);
    const slow = fake.made[1]!;
    slow.close = async () => {
      slow.closes += 1;
      await new Promise<void>((resolve) => (releaseClose = resolve));
      slow.state = 'closed';
    };
    let done = false;
    const closing = session.close().then(() => (done = true));
    const again = session.close();
    await until(() => slow.closes === 1);
    expect(done).toBe(false);
    releaseClose();
    await Promise.all([closing, again]);
    expect(fake.made.map((connection) => [connection.closes, connection.state])).toEqual([
      [1, 'closed'],
      [1, 'closed'],
    ]);
    await session.close();
    expect(fake.made.map((connection) => connection.closes)).toEqual([1, 1]);
    await expect(session.forRun(request({ a: stdio('a') }).value)).rejects.toThrow("This agent's MCP session is closed");
  });
});

describe('mcpPlugin', () => {
  it('registers the connector under the package name', () => {
    const plugin = mcpPlugin();
    expect(plugin.name).toBe('@cairn/tools-mcp');
    expect(plugin.mcp!.configProblem('x', { command: 'npx', disabled: true })).toContain('unknown field "disabled"');
    expect(plugin.mcp!.configProblem('x', { command: 'npx' })).toBeUndefined();
    expect(typeof plugin.mcp!.open).toBe('function');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Waits for a condition the code under test makes true on its own (no timing assumptions). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000 && !condition(); turn += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
