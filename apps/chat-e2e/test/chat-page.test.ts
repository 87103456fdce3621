import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type ServeProcess, startServe, tempWorkspace, testToken } from '../../cli/test/serve/serve-process.js';
import { model, type ServeFixture, serveFixture } from '../../cli/test/serve/serve-fixture.js';
import { launchChromium } from './browser.js';
import { ensureChatPageBuilt } from './chat-page-build.js';
import { type SlowModelProxy, startSlowModelProxy } from './slow-model-proxy.js';

// The chat page `cairn serve` hosts at `/`, in a real headless chromium, against a real `cairn serve`
// process whose model is a fake OpenAI-compatible server scripted by the last user message:
//   "touch NAME"      -> run_terminal_cmd `touch NAME` (changes something: waits for approval)
//   "sleep N"         -> run_terminal_cmd `sleep N && echo slept` (allowed on agents created with that rule)
//   "replace in FILE" -> search_replace in FILE (an edit inside the workspace: allowed, shows a diff)
//   "sketch FILE"     -> edit_file creating FILE (the tool reports its real diff)
//   "plan ..."        -> create_plan (in plan mode)
// anything else is answered with markdown. After a tool result the fake answers "done: ...".
// A prompt that says "slowly" gets its answer one chunk every 80 ms, to watch it stream.

const screenshots = resolve(import.meta.dirname, '../../../docs/chat-ui');
const desktop = { width: 1100, height: 750 };
const phone = { width: 375, height: 740 };

const answer = [
  'Hello from the **fake model**. The workspace has:',
  '',
  '| file | purpose |',
  '|---|---|',
  '| `greeting.txt` | the greeting |',
  '',
  '```ts',
  "export const greeting = 'hello';",
  '```',
  '',
  '- [x] streamed as markdown',
  '- [ ] nothing else to do',
].join('\n');

const plan = {
  name: 'Friendlier greeting',
  overview: 'Make greeting.txt greet the whole world.',
  plan: '## Approach\n\nReplace `Hello` with `Hello, world` in **greeting.txt**, then read it back.',
  todos: [
    { id: 'edit', content: 'Edit greeting.txt', dependencies: [] },
    { id: 'check', content: 'Read the file back', dependencies: ['edit'] },
  ],
};

let fixture: ServeFixture;
let workspace: string;
let server: ServeProcess;
let proxy: SlowModelProxy;
let browser: Browser;
let client: ReturnType<typeof api>;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  // First the browser: without it nothing else is worth starting.
  browser = await launchChromium();
  ensureChatPageBuilt();
  fixture = await serveFixture('chat-e2e', (text) => {
    const touch = /^touch (\S+)/.exec(text);
    if (touch) return { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `touch ${touch[1]}` } }] };
    const sleep = /^sleep (\d+)/.exec(text);
    if (sleep) return { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `sleep ${sleep[1]} && echo slept` } }] };
    const replace = /^replace in (\S+)/.exec(text);
    if (replace) return { toolCalls: [{ name: 'search_replace', args: { path: replace[1], old_string: 'Hello there', new_string: 'Hello, world' } }] };
    const sketch = /^sketch (\S+)/.exec(text);
    if (sketch) return { toolCalls: [{ name: 'edit_file', args: { path: sketch[1], instructions: 'I start the notes', code_edit: '# Notes\n\n- the greeting is friendlier now\n' } }] };
    if (/^plan /.test(text)) return { toolCalls: [{ name: 'create_plan', args: plan }] };
    if (/plan is approved/i.test(text)) return { text: 'Implementing the approved plan now.' };
    return { text: answer };
  });
  workspace = await tempWorkspace('cairn-chat-e2e-ws-');
  await writeFile(join(workspace, 'greeting.txt'), 'Hello there\nfrom the workspace\n');
  proxy = await startSlowModelProxy(fixture.model.url, { delayMs: 80, slow: (body) => body.includes('slowly') });
  server = await startServe(fixture.cli.bin, { roots: [workspace], env: { ...fixture.env, OPENAI_BASE_URL: proxy.url } });
  client = api(server.url);
  await mkdir(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.child.exitCode === null) await server.stop();
  await proxy?.close();
  await fixture?.dispose();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  const errors = pageErrors.splice(0);
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

/** A fresh tab (own sessionStorage) on the page, the token in the fragment as `cairn serve` prints it. */
async function openChat(options: { agentId?: string; viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: options.viewport ?? desktop, deviceScaleFactor: 1 });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.goto(`${server.url}/${options.agentId ? `?agent=${options.agentId}` : ''}#token=${testToken}`);
  await waitFor(page, '[data-testid="cairn-chat"] [data-testid="composer"]', 'the chat with its message box');
  return page;
}

/** Wait for a selector; on a timeout say what the page showed instead. */
async function waitFor(page: Page, selector: string, what: string, timeout = 15_000): Promise<void> {
  try {
    await page.locator(selector).first().waitFor({ state: 'visible', timeout });
  } catch {
    const status = await page.locator('[data-testid="run-status"]').first().getAttribute('data-status', { timeout: 500 }).catch(() => 'none');
    const text = await page.locator('body').innerText({ timeout: 1000 }).catch(() => '(unreadable)');
    throw new Error(`timed out waiting for ${what} (${selector}); run-status=${status}; the page showed:\n${text.slice(0, 1500)}`);
  }
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('composer');
  await box.fill(text);
  await box.press('Enter');
  await waitFor(page, `[data-testid="user-message"]:has-text(${JSON.stringify(text)})`, `the user message "${text}"`);
}

const statusIs = (status: string) => `[data-testid="run-status"][data-status="${status}"]`;
const agentIdOf = (page: Page) => new URL(page.url()).searchParams.get('agent');

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, name) });
}

/** An agent in the workspace allowed to run `sleep`, made through the API. */
async function sleepyAgent(): Promise<string> {
  const created = await client.post('/v1/agents', { model, name: 'sleepy', local: { cwd: workspace }, permissions: { allow: ['shell(sleep *)', 'shell(echo *)'] } });
  expect(created.status, created.text).toBe(201);
  return created.json.agent.agentId as string;
}

describe('the chat page in chromium', () => {
  it('opens, sends a prompt and shows the streamed markdown answer', async () => {
    const page = await openChat();
    await waitFor(page, statusIs('idle'), 'the ready status');
    await send(page, 'hello there, answer slowly');
    // Mid-stream: part of the text is drawn, the run is going, the log is busy.
    await waitFor(page, '[data-testid="assistant-text"][data-streaming="true"]:has-text("Hello from")', 'the answer while it streams');
    const reply = page.getByTestId('assistant-text').last();
    const partial = await reply.innerText();
    expect(partial).not.toContain('nothing else to do');
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('running');
    expect(await page.getByTestId('message-list').getAttribute('aria-busy')).toBe('true');
    await waitFor(page, statusIs('finished'), 'the finished status');
    expect((await reply.innerText()).length).toBeGreaterThan(partial.length);
    expect(await reply.getAttribute('data-streaming')).toBe('false');
    // Markdown rendered as elements, not as text.
    expect(await reply.locator('strong').innerText()).toBe('fake model');
    expect(await reply.locator('table td').first().innerText()).toBe('greeting.txt');
    expect(await reply.locator('pre code').innerText()).toContain("export const greeting = 'hello';");
    // The send created an agent: its id is in the address and in the list.
    const agentId = agentIdOf(page);
    expect(agentId).toBeTruthy();
    await waitFor(page, `[data-testid="agent-item"][data-agent-id="${agentId}"]`, 'the new agent in the list');
    expect(Number(await page.getByTestId('usage').getAttribute('data-total-tokens'))).toBeGreaterThan(0);
    await shot(page, 'streamed-answer.png');
  }, 60_000);

  it('shows a tool call row and the diff of an edit', async () => {
    const page = await openChat();
    await send(page, 'replace in greeting.txt');
    const row = '[data-testid="tool-call"][data-tool-name="search_replace"]';
    await waitFor(page, `${row}[data-status="completed"]`, 'the completed search_replace row');
    await waitFor(page, '[data-testid="assistant-text"]:has-text("done:")', 'the answer after the tool');
    await waitFor(page, statusIs('finished'), 'the finished status');
    const diff = page.locator(`${row} [data-testid="diff"]`);
    expect(await diff.getAttribute('data-path')).toContain('greeting.txt');
    expect(await diff.locator('[data-kind="remove"]').allInnerTexts()).toEqual(['-Hello there']);
    expect(await diff.locator('[data-kind="add"]').allInnerTexts()).toEqual(['+Hello, world']);
    expect(await readFile(join(workspace, 'greeting.txt'), 'utf8')).toBe('Hello, world\nfrom the workspace\n');
    // The row opens to its arguments and result.
    await page.locator(`${row} summary`).click();
    await waitFor(page, `${row} .cairn-tool-body:has-text("old_string")`, 'the arguments of the opened row');
    await shot(page, 'tool-call-diff.png');

    // edit_file reports the diff it really made; the page shows that one, not one from the arguments.
    await send(page, 'sketch notes.md');
    const edit = '[data-testid="tool-call"][data-tool-name="edit_file"]';
    await waitFor(page, `${edit}[data-status="completed"] [data-testid="diff"]`, 'the diff of edit_file');
    await waitFor(page, statusIs('finished'), 'the finished status');
    const reported = page.locator(`${edit} [data-testid="diff"]`);
    expect(await reported.innerText()).not.toContain("from the call's arguments");
    expect(await reported.locator('[data-kind="add"]').allInnerTexts()).toContain('+- the greeting is friendlier now');
    expect(await readFile(join(workspace, 'notes.md'), 'utf8')).toContain('the greeting is friendlier now');
  }, 60_000);

  it('shows a plan with Approve plan, and approving it runs the plan', async () => {
    const page = await openChat();
    await page.getByTestId('mode-picker').selectOption('plan');
    await send(page, 'plan a friendlier greeting');
    await waitFor(page, '[data-testid="plan"]:has-text("Friendlier greeting")', 'the plan card');
    await waitFor(page, '[data-testid="approve-plan"]', 'the Approve plan button');
    await waitFor(page, statusIs('finished'), 'the planning run to finish');
    const card = page.getByTestId('plan');
    expect(await card.locator('ol li').allInnerTexts()).toEqual(['Edit greeting.txt', expect.stringContaining('Read the file back')] as never);
    await shot(page, 'plan-approve.png');

    await page.getByTestId('approve-plan').click();
    await waitFor(page, '[data-testid="user-message"]:has-text("The plan is approved")', 'the approving message');
    await waitFor(page, '[data-testid="assistant-text"]:has-text("Implementing the approved plan")', 'the answer of the approved run');
    await waitFor(page, statusIs('finished'), 'the approved run to finish');
    expect(await page.getByTestId('approve-plan').count()).toBe(0);
    const runs = await client.get(`/v1/agents/${agentIdOf(page)}/runs`);
    expect(runs.json.items.map((run: { mode: string; status: string }) => [run.mode, run.status])).toEqual([
      ['agent', 'finished'],
      ['plan', 'finished'],
    ]);
  }, 60_000);

  it('keeps a pending approval across a reload, and Allow once runs the command', async () => {
    const page = await openChat();
    await send(page, 'touch approved.txt');
    await waitFor(page, '[data-testid="approval"][data-kind="tool"]:has-text("touch approved.txt")', 'the approval prompt');
    await waitFor(page, statusIs('awaiting-approval'), 'the waiting status');
    await waitFor(page, '[data-testid="tool-call"][data-tool-name="run_terminal_cmd"][data-status="awaiting-approval"]', 'the waiting tool row');
    await shot(page, 'approval-prompt.png');
    const agentId = agentIdOf(page);

    await page.reload();
    await waitFor(page, '[data-testid="approval"][data-kind="tool"]:has-text("touch approved.txt")', 'the approval prompt after the reload');
    expect(agentIdOf(page)).toBe(agentId);
    expect(existsSync(join(workspace, 'approved.txt'))).toBe(false);

    await page.getByTestId('approve-once').click();
    await waitFor(page, '[data-testid="tool-call"][data-tool-name="run_terminal_cmd"][data-status="completed"]', 'the completed command');
    await waitFor(page, statusIs('finished'), 'the finished status');
    expect(await page.getByTestId('approval').count()).toBe(0);
    expect(existsSync(join(workspace, 'approved.txt'))).toBe(true);
  }, 60_000);

  it('a reload during a slow command follows the same run to its end', async () => {
    const agentId = await sleepyAgent();
    const page = await openChat({ agentId });
    await send(page, 'sleep 4');
    const row = '[data-testid="tool-call"][data-tool-name="run_terminal_cmd"]';
    await waitFor(page, `${row}[data-status="running"]`, 'the running command');
    await waitFor(page, statusIs('running'), 'the running status');
    const runId = (await client.get(`/v1/agents/${agentId}/runs`)).json.items[0].id as string;

    await page.reload();
    await waitFor(page, `${row}[data-status="running"]`, 'the command still running after the reload');
    await waitFor(page, `${row}[data-status="completed"]`, 'the command to complete', 20_000);
    await waitFor(page, '[data-testid="assistant-text"]:has-text("done:")', 'the answer after the command');
    await waitFor(page, statusIs('finished'), 'the finished status');
    expect(await page.getByTestId('user-message').count()).toBe(1);
    expect(await page.locator(row).count()).toBe(1);
    const run = await client.get(`/v1/runs/${runId}`);
    expect(run.json.status).toBe('finished');
  }, 60_000);

  it('cancels a running run and shows it cancelled', async () => {
    const agentId = await sleepyAgent();
    const page = await openChat({ agentId });
    await send(page, 'sleep 30');
    await waitFor(page, '[data-testid="tool-call"][data-tool-name="run_terminal_cmd"][data-status="running"]', 'the running command');
    await page.getByTestId('cancel').click();
    await waitFor(page, statusIs('cancelled'), 'the cancelled status', 10_000);
    expect(await page.getByTestId('cancel').count()).toBe(0);
    const run = await eventually(async () => {
      const latest = (await client.get(`/v1/agents/${agentId}/runs`)).json.items[0];
      return latest.status === 'running' ? undefined : latest;
    }, 'the run to end', 10_000);
    expect(run.status).toBe('cancelled');
  }, 60_000);

  // The runtime writes no tool-call-completed for a call a cancel cut short: the log ends with the
  // CANCELLED status. The page should still not show that call as going on after its run ended.
  it('after a cancel, the interrupted tool call is not shown as still running', async () => {
    const agentId = await sleepyAgent();
    const page = await openChat({ agentId });
    await send(page, 'sleep 30');
    const row = '[data-testid="tool-call"][data-tool-name="run_terminal_cmd"]';
    await waitFor(page, `${row}[data-status="running"]`, 'the running command');
    await page.getByTestId('cancel').click();
    await waitFor(page, statusIs('cancelled'), 'the cancelled status', 10_000);
    await page.reload();
    await waitFor(page, statusIs('cancelled'), 'the cancelled status after a reload', 10_000);
    const shown = await page.locator(row).getAttribute('data-status');
    const label = await page.locator(`${row} .cairn-tool-state`).innerText();
    expect({ status: shown, label }, 'the tool row of a cancelled run').not.toMatchObject({ status: 'running' });
  }, 60_000);

  it('at phone width (375 px) the composer fits and sends', async () => {
    const page = await openChat({ viewport: phone });
    const box = page.getByTestId('composer');
    const sendButton = page.getByTestId('send');
    for (const element of [box, sendButton, page.getByTestId('mode-picker')]) {
      const bounds = await element.boundingBox();
      expect(bounds).not.toBeNull();
      expect(bounds!.x).toBeGreaterThanOrEqual(0);
      expect(bounds!.x + bounds!.width).toBeLessThanOrEqual(phone.width);
      expect(bounds!.y + bounds!.height).toBeLessThanOrEqual(phone.height);
    }
    // No sideways scrolling of the page itself.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    // The agent list is folded behind its button.
    expect(await page.getByTestId('agent-list').isVisible()).toBe(false);
    await send(page, 'hello from a phone');
    await waitFor(page, '[data-testid="assistant-text"]:has-text("Hello from the fake model")', 'the answer');
    await waitFor(page, statusIs('finished'), 'the finished status');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await shot(page, 'phone.png');
  }, 60_000);
});
