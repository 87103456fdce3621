import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { io } from './cli-io.js';

interface Report {
  version: string;
  ok: boolean;
  checks: Array<{ name: string; status: 'ok' | 'warn' | 'fail'; message: string; fix?: string }>;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const temp = (prefix: string) => mkdtemp(join(tmpdir(), prefix));

/** A port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function doctor(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; report: Report }> {
  const cli = io(['doctor', '--json', ...args], env);
  const code = await cli.run();
  return { code, report: JSON.parse(cli.out()) as Report };
}

const check = (report: Report, name: string) => report.checks.find((line) => line.name === name);

describe('cairn --version', () => {
  it('prints the CLI package version', async () => {
    for (const flag of ['--version', '-v']) {
      const cli = io([flag], {});
      expect(await cli.run()).toBe(0);
      expect(cli.out()).toBe(`${version}\n`);
    }
  });
});

describe('cairn doctor', () => {
  it('is all ok with a reachable server, bubblewrap, a fresh store and an indexed workspace', async () => {
    const home = await temp('cairn-doctor-home-');
    const workspace = await temp('cairn-doctor-ws-');
    await writeFile(join(workspace, 'main.ts'), 'export function greet(name: string) {\n  return name.toUpperCase();\n}\n');
    const server = await startChatCompletionsServer([{ text: 'unused' }]);
    const env = { PATH: process.env.PATH, HOME: home, CAIRN_HOME: home, OPENAI_API_KEY: 'sk-dummy-secret', OPENAI_BASE_URL: server.url };
    // `cairn index` reads CAIRN_HOME from the process environment, as the real command does.
    const savedHome = process.env.CAIRN_HOME;
    process.env.CAIRN_HOME = home;
    try {
      expect(await io(['index', '--cwd', workspace, '--json'], env).run()).toBe(0);
      const { code, report } = await doctor(['--cwd', workspace], env);
      expect(code).toBe(0);
      expect(report.ok).toBe(true);
      expect(report.version).toBe(version);
      expect(check(report, 'node')).toMatchObject({ status: 'ok', message: expect.stringContaining(process.version) });
      expect(check(report, 'sandbox')).toMatchObject({ status: 'ok', message: expect.stringMatching(/bubblewrap works/) });
      expect(check(report, 'provider openai')).toMatchObject({ status: 'ok', message: expect.stringContaining('OPENAI_API_KEY is set') });
      expect(check(report, 'store')).toMatchObject({ status: 'ok', message: expect.stringContaining(join(home, 'agents.db')) });
      expect(check(report, 'index')).toMatchObject({ status: 'ok', message: expect.stringMatching(/1 files, \d+ chunks/) });
      expect(JSON.stringify(report)).not.toContain('sk-dummy-secret');
    } finally {
      if (savedHome === undefined) delete process.env.CAIRN_HOME;
      else process.env.CAIRN_HOME = savedHome;
      await server.close();
    }
  });

  it('fails with what to change: no bwrap on PATH, a base URL that refuses connections, nothing indexed', async () => {
    const home = await temp('cairn-doctor-home-');
    const workspace = await temp('cairn-doctor-ws-');
    const emptyPath = await temp('cairn-doctor-path-');
    const env = { PATH: emptyPath, HOME: home, CAIRN_HOME: home, OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` };
    const { code, report } = await doctor(['--cwd', workspace], env);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(check(report, 'sandbox')).toMatchObject({ status: 'fail', fix: expect.stringContaining('apt-get install bubblewrap') });
    expect(check(report, 'provider openai')).toMatchObject({ status: 'fail', message: expect.stringContaining('ECONNREFUSED'), fix: expect.stringContaining('OPENAI_BASE_URL') });
    expect(check(report, 'index')).toMatchObject({ status: 'warn', fix: expect.stringContaining(`cairn index --cwd`) });
  });

  it('says how to configure a provider when none is, in plain lines', async () => {
    const home = await temp('cairn-doctor-home-');
    // Ollama's default address is asked too; point it at a closed port so a local Ollama cannot answer.
    const env = { PATH: process.env.PATH, HOME: home, CAIRN_HOME: home, OLLAMA_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` };
    const cli = io(['doctor', '--cwd', home], env);
    expect(await cli.run()).toBe(1);
    const lines = cli.out().trim().split('\n');
    expect(lines[0]).toMatch(/^ok {4}node {2}/);
    expect(lines.find((line) => line.includes('ollama'))).toMatch(/^fail {2}provider ollama .* — start the server or fix OLLAMA_BASE_URL$/);
    expect(cli.out()).not.toContain('\x1b[');
  });
});
