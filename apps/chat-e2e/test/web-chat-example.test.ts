import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServe, tempWorkspace, testToken } from '../../cli/test/serve/serve-process.js';
import { type ServeFixture, serveFixture } from '../../cli/test/serve/serve-fixture.js';
import { launchChromium } from './browser.js';
import { ensureChatPageBuilt } from './chat-page-build.js';

// apps/examples/web-chat, built and served as its README says, embedding the component in a page of
// another origin against a real `cairn serve` that lists that origin for CORS.
const examples = resolve(import.meta.dirname, '../../examples');

let browser: Browser;
let fixture: ServeFixture;
let server: ServeProcess;
let page: ChildProcess;
let pagePort: number;

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

beforeAll(async () => {
  browser = await launchChromium();
  ensureChatPageBuilt();
  const built = spawnSync('pnpm', ['exec', 'tsup', '--config', 'web-chat/tsup.config.ts'], { cwd: examples, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building web-chat failed:\n${built.stdout}\n${built.stderr}`);
  pagePort = await freePort();
  page = spawn(process.execPath, ['web-chat/serve.mjs'], { cwd: examples, env: { ...process.env, PORT: String(pagePort) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((done) => page.stdout!.once('data', () => done()));
  fixture = await serveFixture('web-chat', (text) => ({ text: `embedded echo: ${text}` }));
  const workspace = await tempWorkspace('cairn-web-chat-ws-');
  server = await startServe(fixture.cli.bin, { roots: [workspace], env: fixture.env, args: ['--cors-origin', `http://localhost:${pagePort}`] });
}, 180_000);

afterAll(async () => {
  page?.kill();
  await server?.stop();
  await fixture?.dispose();
  await browser?.close();
});

describe('the web-chat example', () => {
  it('embeds the chat in a page of another origin and runs a prompt against the server', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`http://localhost:${pagePort}/?server=${encodeURIComponent(server.url)}#token=${testToken}`);
    await tab.getByTestId('composer').fill('hello from the embed');
    await tab.getByTestId('send').click();
    await expect.poll(async () => tab.getByTestId('assistant-text').last().textContent(), { timeout: 20_000 }).toContain('embedded echo: hello from the embed');
    await expect.poll(async () => tab.getByTestId('run-status').getAttribute('data-status'), { timeout: 20_000 }).toBe('finished');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
