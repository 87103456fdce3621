import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, screenshotPaths, waitForIdle } from './pty/cairn-terminal.js';
import { type GatedStream, startGatedStream } from './pty/gated-stream.js';
import { lastUserText } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('stream');
let server: ChatCompletionsServer;
let gate: GatedStream;

const answer = [
  'The failing test expects **42**, and `answer()` returns 41.',
  '',
  'Change the return value:',
  '',
  '```ts',
  'export function answer(): number {',
  '  return 42;',
  '}',
  '```',
  '',
  'Then run `npm test` again.',
].join('\n');

beforeAll(async () => {
  server = await startChatCompletionsServer(() => ({ text: answer }));
  gate = await startGatedStream(server.url, 'Change the return');
});

afterAll(async () => {
  await gate?.close();
  await server?.close();
});

describe('cairn chat in a terminal: a streamed answer', () => {
  it('shows the answer while it streams, renders its markdown, and prints the resume command at exit', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: gate.url });
    try {
      await session.type('Why does the answer test fail?');
      await session.press('enter');
      await Promise.race([gate.held, session.waitForText('@@never@@', 15_000)]);
      // The first sentence is on screen while the rest of the answer has not been sent yet.
      await session.waitForText('The failing test expects');
      expect(session.screen().join('\n')).not.toContain('npm test again');
      gate.release();
      await session.waitForText('npm test again');
      const screen = session.screen().join('\n');
      // Markdown is rendered: no emphasis stars or code fences left on the screen.
      expect(screen).toContain('return 42;');
      expect(screen).not.toContain('**42**');
      expect(screen).not.toContain('```');
      expect(lastUserText(server.requests.at(-1) ?? {})).toContain('Why does the answer test fail?');
      await waitForIdle(session);
      await saveScreenshot(session.terminal, 'streamed-answer', { replace: screenshotPaths(world) });
      await session.press('ctrl-c');
      await session.waitForText('Press Ctrl+C again to exit');
      await session.press('ctrl-c');
      const status = await session.waitForExit();
      expect(status.exitCode).toBe(0);
      expect(session.history()).toMatch(/resume with: cairn --resume agent-[\w-]+/);
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
