import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { runMcpListCommand } from '../src/commands/mcp-list-command.js';
import { alive, pids } from './mcp-server-pids.js';

const fixture = fileURLToPath(new URL('./mcp-fixture-server.mjs', import.meta.url));
const temp = (prefix: string) => mkdtemp(join(tmpdir(), prefix));

/** Run the CLI in-process; stdin is piped (not a terminal) unless `answers` are given, which a fake terminal types. */
async function cli(args: string[], env: Record<string, string>, answers?: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => {
    err += chunk;
    // The fake terminal answers each question as it appears.
    if (answers && String(chunk).includes('[y/N]')) stdin.write(`${answers.shift() ?? 'n'}\r`);
  });
  if (answers) stdin.isTTY = true;
  else stdin.end();
  const code = await runCli({ argv: ['node', 'cairn', ...args], stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, env });
  return { code, out, err };
}

const server = (startedFile: string, ...extra: string[]) => ({ command: process.execPath, args: [fixture, '--started', startedFile, ...extra] });

/** A workspace with one project server (`.cursor/mcp.json`) and a home with two user servers, one of which cannot start. */
async function setup() {
  const cwd = await temp('cairn-ws-');
  const home = await temp('cairn-user-');
  const cairnHome = join(home, '.cairn');
  const started = { project: join(home, 'project-started'), user: join(home, 'user-started') };
  await mkdir(join(cwd, '.cursor'));
  await mkdir(cairnHome);
  const writeProject = (...extra: string[]) => writeFile(join(cwd, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { tiny: server(started.project, ...extra) } }));
  await writeProject();
  await writeFile(join(cairnHome, 'mcp.json'), JSON.stringify({ mcpServers: { notes: server(started.user, '--tool', 'note'), broken: { command: join(home, 'no-such-program') } } }));
  const env = { HOME: home, CAIRN_HOME: cairnHome, PATH: process.env.PATH ?? '' };
  return { cwd, env, started, writeProject };
}


/** Every server the commands started is gone once they return (close() kills the process group). */
async function expectNoServerLeft(...files: string[]) {
  for (const file of files) for (const pid of await pids(file)) expect(alive(pid), `server process ${pid} is still running`).toBe(false);
}

type Listed = { name: string; origin: string; transport: string; state: string; tools: string[]; error?: string; file?: string; trusted?: boolean };
const byName = (json: string) => Object.fromEntries((JSON.parse(json).servers as Listed[]).map((server) => [server.name, server]));

describe('cairn mcp list', () => {
  it('lists project and user servers with origin, file, transport, state, tools and errors, and never starts an untrusted project server', async () => {
    const { cwd, env, started } = await setup();
    const listed = await cli(['mcp', 'list', '--cwd', cwd, '--json'], env);
    expect(listed.code).toBe(0);
    const servers = byName(listed.out);
    expect(servers.tiny).toMatchObject({ origin: 'project', transport: 'stdio', trusted: false, tools: [] });
    expect(servers.tiny!.file).toMatch(/\.cursor[/\\]mcp\.json$/);
    expect(servers.notes).toMatchObject({ origin: 'user', transport: 'stdio', state: 'ready' });
    expect(servers.notes!.tools).toHaveLength(1);
    expect(servers.notes!.tools[0]).toMatch(/note/);
    expect(servers.broken).toMatchObject({ origin: 'user', state: 'failed' });
    expect(servers.broken!.error).toBeTruthy();
    expect(await pids(started.project)).toEqual([]);
    expect(await pids(started.user)).toHaveLength(1);
    await expectNoServerLeft(started.user);

    const text = await cli(['mcp', 'list', '--cwd', cwd], env);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^tiny +project \.cursor[/\\]mcp\.json +stdio +not trusted$/m);
    expect(text.out).toMatch(/not started: review and trust the workspace's project servers with: cairn mcp trust --cwd/);
    expect(text.out).toMatch(/^notes +user ~\/\.cairn\/mcp\.json +stdio +ready, 1 tool$/m);
    expect(text.out).toMatch(/^broken +user ~\/\.cairn\/mcp\.json +stdio +failed\n {2}error: /m);
    expect(await pids(started.project)).toEqual([]);
  });

  it('says where to declare servers when there are none, and shows a broken config file as a warning', async () => {
    const cwd = await temp('cairn-ws-');
    const home = await temp('cairn-user-');
    const env = { HOME: home, CAIRN_HOME: join(home, '.cairn'), PATH: process.env.PATH ?? '' };
    const none = await cli(['mcp', 'list', '--cwd', cwd], env);
    expect(none.code).toBe(0);
    expect(none.out).toMatch(/^No MCP servers are configured for .*\nDeclare them in \.cairn\/mcp\.json, \.cursor\/mcp\.json or \.mcp\.json/);
    await writeFile(join(cwd, '.mcp.json'), '{ "mcpServers": ');
    const broken = await cli(['mcp', 'list', '--cwd', cwd, '--json'], env);
    expect(broken.code).toBe(0);
    const { servers, warnings } = JSON.parse(broken.out) as { servers: unknown[]; warnings: Array<{ message: string }> };
    expect(servers).toEqual([]);
    expect(warnings.map((warning) => warning.message).join('\n')).toMatch(/\.mcp\.json/);
    expect((await cli(['mcp', 'list', '--cwd', cwd], env)).out).toMatch(/^warning: .*\.mcp\.json/m);
    // The program's --cwd works too (`cairn --cwd DIR mcp list`).
    expect(JSON.parse((await cli(['--cwd', cwd, 'mcp', 'list', '--json'], env)).out).workspace).toBe(await realpath(cwd));
  });

  it('reports a server that does not answer in time and leaves no process behind', async () => {
    const cwd = await temp('cairn-ws-');
    const home = await temp('cairn-user-');
    const startedFile = join(home, 'started');
    await mkdir(join(home, '.cairn'));
    await writeFile(join(home, '.cairn', 'mcp.json'), JSON.stringify({ mcpServers: { stuck: server(startedFile, '--hang') } }));
    const env = { HOME: home, CAIRN_HOME: join(home, '.cairn'), PATH: process.env.PATH ?? '' };
    const listed = await cli(['mcp', 'list', '--cwd', cwd, '--timeout', '1'], env);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^stuck +user .* +stdio +timed out \(no answer within 1 s\)$/m);
    expect(await pids(startedFile)).toHaveLength(1);
    await expectNoServerLeft(startedFile);
  });

  it('stops on Ctrl+C, closes the servers that started, and exits with 130', async () => {
    const cwd = await temp('cairn-ws-');
    const home = await temp('cairn-user-');
    const startedFile = join(home, 'started');
    await mkdir(join(home, '.cairn'));
    await writeFile(join(home, '.cairn', 'mcp.json'), JSON.stringify({ mcpServers: { stuck: server(startedFile, '--hang') } }));
    const env = { HOME: home, CAIRN_HOME: join(home, '.cairn'), PATH: process.env.PATH ?? '' };
    const interrupt = new AbortController();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (chunk) => (err += chunk));
    const listing = runMcpListCommand({ cwd, json: false, timeoutMs: 60_000, signal: interrupt.signal, stdout: new PassThrough(), stderr, env });
    while ((await pids(startedFile)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    interrupt.abort();
    expect(await listing).toBe(130);
    expect(err).toBe('[cancelled]\n');
    await expectNoServerLeft(startedFile);
  });
});

describe('cairn mcp trust / untrust', () => {
  it('without a terminal trusts nothing unless --yes is given', async () => {
    const { cwd, env, started } = await setup();
    const refused = await cli(['mcp', 'trust', '--cwd', cwd], env);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/^tiny +project .* +not trusted$/m);
    expect(refused.err).toMatch(/no terminal to confirm on\. .*pass --yes/);
    expect(await pids(started.project)).toEqual([]);
    // User servers need no trust and are not started by `trust`.
    expect(refused.out).not.toMatch(/notes/);
    expect(await pids(started.user)).toEqual([]);

    const trusted = await cli(['mcp', 'trust', '--cwd', cwd, '--yes'], env);
    expect(trusted.code).toBe(0);
    expect(trusted.out).toMatch(/^tiny +project .* +stdio +ready, 1 tool$/m);
    expect(byName((await cli(['mcp', 'list', '--cwd', cwd, '--json'], env)).out).tiny).toMatchObject({ trusted: true, state: 'ready' });
    await expectNoServerLeft(started.project, started.user);
  });

  it('asks on a terminal, remembers a yes, and asks again after the server config changed', async () => {
    const { cwd, env, started, writeProject } = await setup();
    const declined = await cli(['mcp', 'trust', '--cwd', cwd], env, ['n']);
    expect(declined.code).toBe(0);
    expect(declined.err).toMatch(/declares the MCP server "tiny":\n {2}command: .*mcp-fixture-server\.mjs --started/);
    expect(declined.out).toMatch(/^tiny .* +not trusted$/m);
    expect(await pids(started.project)).toEqual([]);

    const accepted = await cli(['mcp', 'trust', '--cwd', cwd], env, ['y']);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toMatch(/^tiny .* +ready, 1 tool$/m);
    expect(await pids(started.project)).toHaveLength(1);
    const again = await cli(['mcp', 'trust', '--cwd', cwd], env, []);
    expect(again.err).not.toMatch(/\[y\/N\]/);
    expect(await pids(started.project)).toHaveLength(2);

    // A changed command in the project file (a pulled commit, a cloned repository) is not trusted.
    await writeProject('--tool', 'other');
    const changed = await cli(['mcp', 'list', '--cwd', cwd, '--json'], env);
    expect(byName(changed.out).tiny).toMatchObject({ trusted: false, tools: [] });
    expect(await pids(started.project)).toHaveLength(2);
    const reasked = await cli(['mcp', 'trust', '--cwd', cwd], env, ['y']);
    expect(reasked.err).toMatch(/"tiny" in .*mcp\.json changed since you trusted it:\n {2}command: .*--tool other/);
    expect(reasked.out).toMatch(/^ {2}tools: .*other/m);
    await expectNoServerLeft(started.project, started.user);
  });

  it('forgets a workspace\'s confirmations with untrust', async () => {
    const { cwd, env } = await setup();
    expect((await cli(['mcp', 'trust', '--cwd', cwd, '--yes'], env)).code).toBe(0);
    const missing = await cli(['mcp', 'untrust', 'nope', '--cwd', cwd], env);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/^None of nope is trusted in /);
    const forgot = await cli(['mcp', 'untrust', '--cwd', cwd], env);
    expect(forgot.code).toBe(0);
    expect(forgot.out).toMatch(/^Forgot tiny in .*: cairn will ask again before starting it\.$/m);
    expect(byName((await cli(['mcp', 'list', '--cwd', cwd, '--json'], env)).out).tiny).toMatchObject({ trusted: false });
  });
});
