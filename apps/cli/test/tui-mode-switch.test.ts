import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, waitForIdle } from './pty/cairn-terminal.js';
import { type ChatRequest, isFirstStep, lastMessage, messagesOf, textOf } from './pty/model-requests.js';
import type { TerminalSession } from './pty/terminal-session.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('mode-switch');
let server: ChatCompletionsServer;

/** The name of the tool the model called last in the conversation. */
function lastCalledTool(body: ChatRequest): string | undefined {
  return messagesOf(body).findLast((message) => message.tool_calls?.length)?.tool_calls?.at(-1)?.function.name;
}

/** In ask mode the model asks to switch to agent mode, then writes a file there. */
beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    // A refused switch comes back as a reminder in a user message after the tool result.
    if (/declined the switch/.test(textOf(lastMessage(body)))) return { text: 'Staying in ask mode, nothing written.' };
    if (isFirstStep(body)) return { toolCalls: [{ name: 'switch_mode', args: { mode: 'agent', explanation: 'the fix needs a file written' } }] };
    if (lastCalledTool(body) === 'switch_mode') return { toolCalls: [{ name: 'write', args: { path: 'fix.txt', contents: 'fixed\n' } }] };
    return { text: 'Switched to agent mode and wrote fix.txt.' };
  });
});

afterAll(async () => {
  await server?.close();
});

async function askModeChat(): Promise<{ session: TerminalSession; workspace: string }> {
  const world = await createWorld();
  const session = await openChat({ bin: cli().bin, world, baseUrl: server.url, args: ['--mode', 'ask'] });
  await session.waitForText('ask mode');
  await session.type('Fix it please');
  await session.press('enter');
  await session.waitForText('Allow this mode switch?');
  await session.waitForText('switch from ask to agent mode: the fix needs a file written');
  return { session, workspace: world.workspace };
}

describe('cairn chat in a terminal: a mode switch the model asks for', () => {
  it('allowed, the run goes on in agent mode and writes', async () => {
    const { session, workspace } = await askModeChat();
    try {
      await session.type('y');
      await session.waitForText('Switched to agent mode and wrote fix.txt.');
      await waitForIdle(session);
      expect(session.history()).toContain('mode ask -> agent');
      expect(await readFile(join(workspace, 'fix.txt'), 'utf8')).toBe('fixed\n');
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it('denied, the run stays in ask mode and nothing is written', async () => {
    const { session, workspace } = await askModeChat();
    try {
      await session.type('n');
      await session.waitForText('Staying in ask mode, nothing written.');
      await waitForIdle(session);
      expect(session.history()).not.toContain('mode ask -> agent');
      await expect(access(join(workspace, 'fix.txt'))).rejects.toThrow();
    } finally {
      await session.dispose();
    }
  }, 120_000);
});
