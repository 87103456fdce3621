import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, screenshotPaths, waitForIdle } from './pty/cairn-terminal.js';
import { type GatedStream, startGatedStream } from './pty/gated-stream.js';
import { isFirstStep } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('todos');
let server: ChatCompletionsServer;
let gate: GatedStream;

const todos = [
  { id: 'read', content: 'Read the failing test', status: 'completed' },
  { id: 'fix', content: 'Fix answer()', status: 'in_progress' },
  { id: 'run', content: 'Run the tests', status: 'pending' },
];

beforeAll(async () => {
  server = await startChatCompletionsServer((body) =>
    isFirstStep(body) ? { toolCalls: [{ name: 'todo_write', args: { merge: false, todos } }] } : { text: 'Working on the fix now.\n\nThe fix is in place.' },
  );
  gate = await startGatedStream(server.url, 'Working on');
});

afterAll(async () => {
  await gate?.close();
  await server?.close();
});

describe('cairn chat in a terminal: todos', () => {
  it('shows the todo list as a live checklist while the run goes on, then in the transcript', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: gate.url });
    try {
      await session.type('Fix the failing test');
      await session.press('enter');
      await gate.held;
      await session.waitForText('[~] Fix answer()');
      const live = session.screen().join('\n');
      expect(live).toContain('[x] Read the failing test');
      expect(live).toContain('[ ] Run the tests');
      expect(live).toContain('Ctrl+C cancels');
      // A checklist, not the tool's JSON.
      expect(live).not.toContain('"status"');
      await saveScreenshot(session.terminal, 'todos-checklist', { replace: screenshotPaths(world) });
      gate.release();
      await session.waitForText('The fix is in place.');
      await waitForIdle(session);
      expect(session.screen().join('\n')).toContain('[~] Fix answer()');
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
