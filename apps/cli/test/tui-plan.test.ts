import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedFooter, createWorld, openChat, screenshotPaths } from './pty/cairn-terminal.js';
import { isFirstStep, lastUserText, offeredTools } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('plan');
let server: ChatCompletionsServer;

const plan = {
  name: 'Add a greeting',
  overview: 'Write hello.txt with a greeting for new contributors.',
  plan: '1. Create `hello.txt` at the root.\n2. Put one friendly line in it.',
  todos: [
    { id: 'write', content: 'Write hello.txt', dependencies: [] },
    { id: 'check', content: 'Read it back', dependencies: ['write'] },
  ],
};

const frenchPlan = { ...plan, name: 'Add a greeting in two languages', todos: [...plan.todos, { id: 'french', content: 'Add Bonjour', dependencies: ['write'] }] };

/** Planning (create_plan offered): propose the plan. Executing: write the file, then report. */
beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    const planning = offeredTools(body).includes('create_plan');
    const changed = lastUserText(body).includes('also greet in French');
    if (planning) return isFirstStep(body) ? { toolCalls: [{ name: 'create_plan', args: changed ? frenchPlan : plan }] } : { text: 'The plan is ready for your review.' };
    return isFirstStep(body) ? { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'Hello, and welcome!\n' } }] } : { text: 'Implemented: hello.txt is written.' };
  });
});

afterAll(async () => {
  await server?.close();
});

describe('cairn chat in a terminal: a plan', () => {
  it('shows the proposed plan in full, and approving it executes it in agent mode', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('/mode plan');
      await session.press('enter');
      await session.waitForText('plan mode');
      await session.type('Add a greeting file');
      await session.press('enter');
      await session.waitForText('Plan proposed:');
      // The whole plan, wherever it is: a long plan scrolls its top into the scrollback.
      const screen = session.history();
      expect(screen).toContain('Plan: Add a greeting');
      expect(screen).toContain('Write hello.txt with a greeting for new contributors.');
      expect(screen).toContain('Read it back');
      expect(screen).toContain('[y] approve and run it');
      expect(screen).toContain('[e] edit');
      expect(screen).toContain('[n] reject');
      await session.waitForText(countedFooter);
      await saveScreenshot(session.terminal, 'plan-approval', { replace: screenshotPaths(world) });
      await expect(access(join(world.workspace, 'hello.txt'))).rejects.toThrow();
      await session.type('y');
      await session.waitForText('Implemented: hello.txt is written.');
      await session.waitForNoText('Ctrl+C cancels');
      expect(await readFile(join(world.workspace, 'hello.txt'), 'utf8')).toBe('Hello, and welcome!\n');
      // The execution ran in agent mode: the last request offered the writing tools, not create_plan.
      expect(offeredTools(server.requests.at(-1) ?? {})).toContain('write');
      await session.waitForText(/ · agent mode · /);
      expect(server.problems).toEqual([]);
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it('edit plans again with the requested change; reject keeps plan mode and changes nothing', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url, args: ['--mode', 'plan'] });
    try {
      await session.type('Add a greeting file');
      await session.press('enter');
      await session.waitForText('Plan proposed:');
      await session.type('e');
      await session.waitForText('describe the changes to the plan and press Enter');
      await session.type('also greet in French');
      await session.press('enter');
      await session.waitForText('Plan: Add a greeting in two languages');
      await session.waitForText('Plan proposed:');
      expect(session.history()).toContain('Add Bonjour');
      const request = server.requests.at(-2) ?? {};
      expect(lastUserText(request)).toContain('also greet in French');
      expect(offeredTools(request)).toContain('create_plan');
      await session.type('n');
      await session.waitForText('plan rejected; the agent stays in plan mode');
      expect(session.screen().join('\n')).toContain('plan mode');
      await expect(access(join(world.workspace, 'hello.txt'))).rejects.toThrow();
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
