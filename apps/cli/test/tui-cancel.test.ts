import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, screenshotPaths } from './pty/cairn-terminal.js';
import { isFirstStep, lastUserText } from './pty/model-requests.js';
import { eventually, processesRunning } from './pty/processes.js';
import { saveScreenshot } from './pty/screenshot.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('cancel');
let server: ChatCompletionsServer;
// An unusual duration, so the test finds its own sleep among the machine's processes.
const sleepArgv = ['sleep', '37.25'];

beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    if (lastUserText(body).includes('marker')) return isFirstStep(body) ? { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'touch marker.txt' } }] } : { text: 'The marker is made.' };
    if (lastUserText(body).includes('wait')) return isFirstStep(body) ? { toolCalls: [{ name: 'run_terminal_cmd', args: { command: sleepArgv.join(' ') } }] } : { text: 'The wait is over.' };
    return { text: 'Still here after the cancel.' };
  });
});

afterAll(async () => {
  await server?.close();
});

describe('cairn chat in a terminal: Ctrl-C', () => {
  it('cancels a running command, brings the prompt back, and exits on two presses with the resume command', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('Please wait for a while');
      await session.press('enter');
      // `sleep` changes nothing, so it runs without a question.
      // The status line names the command and counts the seconds.
      await session.waitForText(/running: sleep 37\.25 · [1-9]\d* s/);
      await eventually(async () => (await processesRunning(sleepArgv)).length > 0, 'the sleep to start');
      await saveScreenshot(session.terminal, 'running-command', { replace: screenshotPaths(world) });
      await session.press('ctrl-c');
      await session.waitForText('cancelled');
      await session.waitForNoText('running: sleep');
      await eventually(async () => (await processesRunning(sleepArgv)).length === 0, 'the cancelled command to be killed');
      expect(session.history()).not.toContain('The wait is over.');
      // The prompt is back and takes the next message.
      await session.type('Are you there?');
      await session.press('enter');
      await session.waitForText('Still here after the cancel.');
      await session.waitForNoText('Ctrl+C cancels');
      await session.press('ctrl-c');
      await session.waitForText('Press Ctrl+C again to exit');
      await session.press('ctrl-c');
      expect((await session.waitForExit()).exitCode).toBe(0);
      const agentId = /resume with: cairn --resume (agent-[\w-]+)/.exec(session.history())?.[1];
      expect(agentId).toBeDefined();
      // The store agrees: the first run was cancelled, the second finished.
      const { stdout } = await promisify(execFile)(process.execPath, [cli().bin, 'runs', agentId as string, '--json'], { env: { ...process.env, HOME: world.home, CAIRN_HOME: world.cairnHome } });
      const statuses = (JSON.parse(stdout) as Array<{ status: string }>).map((run) => run.status).sort();
      expect(statuses).toEqual(['cancelled', 'finished']);
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it('cancels a run that waits on an approval: the call never runs', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('Make the marker file');
      await session.press('enter');
      await session.waitForText('Allow this call?');
      await session.press('ctrl-c');
      await session.waitForText('cancelled');
      await session.waitForNoText('Allow this call?');
      await session.waitForNoText('waiting for your answer');
      expect(session.history()).not.toContain('The marker is made.');
      await expect(access(join(world.workspace, 'marker.txt'))).rejects.toThrow();
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
