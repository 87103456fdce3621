import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, readyFooter } from './pty/cairn-terminal.js';
import type { TerminalSession } from './pty/terminal-session.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('commands');
let server: ChatCompletionsServer;

beforeAll(async () => {
  server = await startChatCompletionsServer(() => ({ text: 'Hello.' }));
});

afterAll(async () => {
  await server?.close();
});

const footerAgent = (screen: string[]) => /^(agent-[0-9a-f]+) · /.exec(screen.find((line) => readyFooter.test(line)) ?? '')?.[1];

describe('cairn chat in a terminal: slash commands', () => {
  it('/help lists the commands, /new starts another agent, /exit leaves with its resume command; none reaches the model', async () => {
    const world = await createWorld();
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('/help');
      await session.press('enter');
      await session.waitForText('/resume');
      const help = session.screen().join('\n');
      for (const command of ['/mode', '/model', '/new', '/cost', '/exit']) expect(help).toContain(command);
      const first = footerAgent(session.screen());
      expect(first).toBeDefined();
      await session.type('/new');
      await session.press('enter');
      await session.waitForText(/cairn · agent agent-[\w-]+ · /);
      await session.waitForText(readyFooter);
      await waitForOtherAgent(session, first as string);
      const second = footerAgent(session.screen()) as string;
      await session.type('/exit');
      await session.press('enter');
      expect((await session.waitForExit()).exitCode).toBe(0);
      const resumed = /resume with: cairn --resume (agent-[\w-]+)/.exec(session.history())?.[1];
      expect(resumed?.startsWith(second)).toBe(true);
      expect(server.requests).toHaveLength(0);
    } finally {
      await session.dispose();
    }
  }, 120_000);
});

/** Waits for a footer naming an agent other than `first`. */
async function waitForOtherAgent(session: TerminalSession, first: string): Promise<void> {
  await session.waitForText(new RegExp(`^(?!${first})agent-[0-9a-f]+ · .*/help`, 'm'));
}
