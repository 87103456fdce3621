import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CairnWorld, countedFooter, createWorld, openChat, screenshotPaths } from './pty/cairn-terminal.js';
import { lastUserText, messagesOf, textOf } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import type { TerminalSession } from './pty/terminal-session.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('resume');
let server: ChatCompletionsServer;

/** The model remembers a word when told one, and names it back from the conversation it is sent. */
beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    const told = /Remember the word (\w+)/.exec(lastUserText(body))?.[1];
    if (told) return { text: `I will remember ${told}.` };
    const earlier = messagesOf(body).map(textOf).join('\n');
    const word = /Remember the word (\w+)/.exec(earlier)?.[1];
    return { text: word ? `The word was ${word}.` : 'I do not know any word.' };
  });
});

afterAll(async () => {
  await server?.close();
});

/** One chat that tells the model a word and exits; resolves to the agent id from the resume command. */
async function chatThatRemembers(world: CairnWorld, word: string): Promise<string> {
  const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
  try {
    await session.type(`Remember the word ${word}`);
    await session.press('enter');
    await session.waitForText(`I will remember ${word}.`);
    await session.waitForNoText('Ctrl+C cancels');
    await exitChat(session);
    const agentId = /resume with: cairn --resume (agent-[\w-]+)/.exec(session.history())?.[1];
    expect(agentId).toBeDefined();
    return agentId as string;
  } finally {
    await session.dispose();
  }
}

async function exitChat(session: TerminalSession): Promise<void> {
  await session.press('ctrl-c');
  await session.waitForText('Press Ctrl+C again to exit');
  await session.press('ctrl-c');
  expect((await session.waitForExit()).exitCode).toBe(0);
}

describe('cairn chat in a terminal: resuming', () => {
  it('/resume picks one of the workspace agents by its first prompt and continues its conversation', async () => {
    const world = await createWorld();
    const older = await chatThatRemembers(world, 'pineapple');
    const newer = await chatThatRemembers(world, 'harbour');
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await session.type('/resume');
      await session.press('enter');
      await session.waitForText('Resume an agent of');
      await session.waitForText('Remember the word pineapple');
      const screen = session.screen().join('\n');
      expect(screen).toContain('Remember the word harbour');
      expect(screen).toContain(older);
      expect(screen).toContain(newer);
      await saveScreenshot(session.terminal, 'resume-picker', { replace: screenshotPaths(world) });
      // Move the choice to the pineapple agent, wherever the list put it.
      for (let step = 0; step < 5 && !chosenLine(session.screen())?.includes('pineapple'); step++) await session.press('down');
      expect(chosenLine(session.screen())).toContain('pineapple');
      await session.press('enter');
      await session.waitForText(`resumed · agent ${older}`);
      await session.waitForText('I will remember pineapple.');
      await session.type('Which word was it?');
      await session.press('enter');
      await session.waitForText('The word was pineapple.');
      await session.waitForNoText('Ctrl+C cancels');
      await exitChat(session);
      expect(session.history()).toContain(`resume with: cairn --resume ${older}`);
    } finally {
      await session.dispose();
    }
  }, 180_000);

  it('--resume from another folder shows the agent\'s own workspace and its last turns', async () => {
    const world = await createWorld();
    const agentId = await chatThatRemembers(world, 'lantern');
    // Started in the home folder, not in the project: the agent keeps working in its workspace.
    const session = await openChat({ bin: cli().bin, world: { ...world, workspace: world.home }, baseUrl: server.url, args: ['--resume', agentId] });
    try {
      await session.waitForText(`resumed · agent ${agentId}`);
      await session.waitForText(world.workspace);
      await session.waitForText('Remember the word lantern');
      await session.waitForText('I will remember lantern.');
      await session.waitForText(countedFooter);
      await saveScreenshot(session.terminal, 'resumed-agent', { replace: screenshotPaths(world) });
      await session.type('Which word was it?');
      await session.press('enter');
      await session.waitForText('The word was lantern.');
    } finally {
      await session.dispose();
    }
  }, 180_000);
});

/** The picker's highlighted line (`› …`). */
function chosenLine(screen: string[]): string | undefined {
  return screen.find((line) => line.includes('›'));
}
