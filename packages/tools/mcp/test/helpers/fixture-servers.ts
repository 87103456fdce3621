// Starting the test servers: the package's fixture (stdio and HTTP) and the registry servers.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { McpStdioServerConfig } from '@cairn/core/spec';
import { taggedEnv } from './server-processes.js';

const require = createRequire(import.meta.url);

export const fixtureServerPath = resolve(import.meta.dirname, '../fixtures/fixture-server.mjs');
export const everythingServerPath = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
export const filesystemServerPath = join(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist/index.js');

/** A fresh folder for a fixture's markers (and anything else a test writes); remove it with `rmSync`. */
export function scratchFolder(prefix = 'cairn-mcp-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeFolder(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** The fixture over stdio, tagged (`extra.env` may give its own tag), its markers in `stateDir`. */
export function fixtureConfig(stateDir: string, extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig {
  return { ...extra, command: process.execPath, args: [fixtureServerPath, ...(extra.args ?? [])], env: { FIXTURE_STATE_DIR: stateDir, ...taggedEnv, ...extra.env } };
}

/** Waits (a bounded while) for a condition another process makes true, e.g. a marker file. */
export async function eventually(check: () => boolean, waitMs = 5000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 25));
  }
  return true;
}

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

/** The fixture's HTTP mode: `/mcp` (streamable HTTP) and `/sse`; with `key`, requests need `x-fixture-key`. */
export async function startHttpFixture(stateDir: string, key?: string): Promise<RunningHttpServer> {
  const env = { ...process.env, FIXTURE_STATE_DIR: stateDir, ...taggedEnv, ...(key ? { FIXTURE_KEY: key } : {}) };
  const child = spawn(process.execPath, [fixtureServerPath, '--http'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForOutput(child, 'stdout', /listening (\d+)/);
  return { url: `http://127.0.0.1:${port}`, close: () => stopChild(child) };
}

/** server-everything in `streamableHttp` or `sse` mode on a free port (it reads PORT). */
export async function startEverythingServer(mode: 'streamableHttp' | 'sse'): Promise<RunningHttpServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingServerPath, mode], { env: { ...process.env, PORT: String(port), ...taggedEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForOutput(child, 'stderr', new RegExp(`port ${port}`));
  return { url: `http://127.0.0.1:${port}`, close: () => stopChild(child) };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

function waitForOutput(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  return new Promise((done, fail) => {
    let seen = '';
    child[stream]?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (match) done(match[1] ?? match[0]);
    });
    child.once('exit', (code) => fail(new Error(`the test server exited (code ${code}) before it was ready: ${seen}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}
