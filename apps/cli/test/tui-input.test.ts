import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CairnWorld, createWorld, openChat, readyFooter, waitForIdle } from './pty/cairn-terminal.js';
import { lastUserText } from './pty/model-requests.js';
import type { TerminalSession } from './pty/terminal-session.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('input');
let server: ChatCompletionsServer;
let world: CairnWorld;
let session: TerminalSession;

beforeAll(async () => {
  server = await startChatCompletionsServer((_body, index) => ({ text: `Answer number ${index + 1}.` }));
  world = await createWorld();
  await mkdir(join(world.workspace, 'src'));
  await writeFile(join(world.workspace, 'src/answer.ts'), 'export const answer = 42;\n');
  session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
}, 120_000);

afterAll(async () => {
  await session?.dispose();
  await server?.close();
});

/** The input line(s) between the transcript and the footer: what `> ` shows. */
const inputLine = () => session.screen().filter((line) => line.startsWith('> ')).at(-1) ?? '';

async function send(expectedAnswer: number): Promise<string> {
  await session.press('enter');
  await session.waitForText(`Answer number ${expectedAnswer}.`);
  await waitForIdle(session);
  return lastUserText(server.requests.at(-1) ?? {});
}

describe('cairn chat in a terminal: the input', () => {
  it('keeps every key typed faster than the screen redraws', async () => {
    const text = 'The quick brown fox jumps over the lazy dog 0123456789';
    session.typeQuickly(text);
    await session.waitForText(`> ${text}`);
    expect(await send(1)).toContain(text);
  }, 60_000);

  it('takes a multi-line paste whole and sends its line breaks', async () => {
    await session.paste('first pasted line\nsecond pasted line');
    await session.waitForText('second pasted line');
    expect(await send(2)).toContain('first pasted line\nsecond pasted line');
  }, 60_000);

  it('adds a line with a trailing backslash', async () => {
    await session.type('top line\\');
    await session.press('enter');
    await session.type('bottom line');
    await session.waitForText('bottom line');
    expect(await send(3)).toContain('top line\nbottom line');
  }, 60_000);

  it('brings back earlier inputs with the up arrow', async () => {
    await session.press('up');
    await session.waitForText('bottom line');
    // Inside a multi-line input ↑ moves up a line first; keep pressing until the first input is back.
    for (let press = 0; press < 8 && !inputLine().includes('The quick brown fox'); press++) await session.press('up');
    expect(inputLine()).toContain('The quick brown fox');
    expect(await send(4)).toContain('The quick brown fox');
  }, 60_000);

  it('completes an @file mention with Tab', async () => {
    await session.type('Explain @src/ans');
    await session.press('tab');
    await session.waitForText('@src/answer.ts');
    expect(inputLine()).toContain('Explain @src/answer.ts');
    expect(await send(5)).toContain('src/answer.ts');
  }, 60_000);

  it('keeps an unknown slash command from the model and says what exists', async () => {
    const requests = server.requests.length;
    await session.type('/frobnicate');
    await session.press('enter');
    await session.waitForText('unknown command /frobnicate');
    await session.waitForText('/help lists the commands');
    expect(server.requests.length).toBe(requests);
  }, 60_000);

  it('checks /model while it is typed and refuses an unknown model', async () => {
    await session.type('/model openai/gpt-4.1-mini');
    await session.waitForText('✓ openai/gpt-4.1-mini is available');
    await session.press('ctrl-c');
    await session.waitForNoText('is available');
    const requests = server.requests.length;
    await session.type('/model nowhere/imaginary-model');
    await session.waitForText('✗');
    await session.press('enter');
    await session.waitForText(/\/model nowhere\/imaginary-model: /);
    expect(session.screen().find((line) => readyFooter.test(line))).toContain('openai/gpt-4.1-mini');
    expect(server.requests.length).toBe(requests);
  }, 60_000);
});
