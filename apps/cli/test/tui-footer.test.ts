import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat } from './pty/cairn-terminal.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('footer');
let server: ChatCompletionsServer;

beforeAll(async () => {
  // The fake server reports 100 prompt and 20 completion tokens for the first request.
  server = await startChatCompletionsServer(() => ({ text: 'Counted.' }));
});

afterAll(async () => {
  await server?.close();
});

describe('cairn chat in a terminal: tokens', () => {
  it('/cost and the footer show the tokens of the finished run', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('Count my tokens');
      await session.press('enter');
      await session.waitForText('Counted.');
      await session.waitForNoText('Ctrl+C cancels');
      await session.type('/cost');
      await session.press('enter');
      await session.waitForText(/1 run · 100 input tokens \(0 cached\) · 20 output tokens/);
      await session.waitForText(/ · 100 in · 20 out/);
      expect(server.requests).toHaveLength(1);
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
