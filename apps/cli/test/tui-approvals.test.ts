import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CairnWorld, createWorld, openChat, screenshotPaths } from './pty/cairn-terminal.js';
import { isFirstStep, lastUserText, toolResultsOfTurn } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import type { TerminalSession } from './pty/terminal-session.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('approvals');
let server: ChatCompletionsServer;

/**
 * "make NAME (TAG)" asks the model to run `touch NAME.txt`; after the call it says what it read,
 * with the tag, so each answer is a new line to wait for.
 */
beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    const [, name = 'nothing', tag = ''] = /make (\w+) \((\w+)\)/.exec(lastUserText(body)) ?? [];
    if (isFirstStep(body)) return { toolCalls: [{ name: 'run_terminal_cmd', args: { command: name === 'listing' ? 'ls' : `touch ${name}.txt` } }] };
    const result = toolResultsOfTurn(body).join(' ');
    return { text: `${name} ${tag}: ${/denied/i.test(result) ? 'the call was refused' : 'the call ran'}` };
  });
});

afterAll(async () => {
  await server?.close();
});

const exists = (path: string) => access(path).then(() => true, () => false);

/** Sends "make NAME" and waits for the approval prompt of `touch NAME.txt`. */
async function askFor(session: TerminalSession, name: string, tag: string): Promise<void> {
  await session.type(`make ${name} (${tag})`);
  await session.press('enter');
  await session.waitForText('Allow this call?');
  await session.waitForText(`run: touch ${name}.txt`);
}

async function finished(session: TerminalSession, name: string, tag: string, outcome: 'ran' | 'was refused'): Promise<void> {
  await session.waitForText(`${name} ${tag}: the call ${outcome}`);
  await session.waitForNoText('Ctrl+C cancels');
}

describe('cairn chat in a terminal: approvals of a shell command that is not read-only', () => {
  let world: CairnWorld;

  beforeAll(async () => {
    world = await createWorld();
  });

  it('allow once runs the command and asks again next time', async () => {
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await askFor(session, 'once', 'first');
      expect(session.screen().join('\n')).toContain('[y] allow once');
      expect(session.screen().join('\n')).toContain('[a] allow always in this workspace');
      expect(session.screen().join('\n')).toContain('[n] deny');
      await saveScreenshot(session.terminal, 'approval-prompt', { replace: screenshotPaths(world) });
      expect(await exists(join(world.workspace, 'once.txt'))).toBe(false);
      await session.type('y');
      await finished(session, 'once', 'first', 'ran');
      expect(await exists(join(world.workspace, 'once.txt'))).toBe(true);
      // Once is not remembered: the same command is asked about again.
      await askFor(session, 'once', 'second');
      await session.type('y');
      await finished(session, 'once', 'second', 'ran');
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it('deny refuses the call: the command does not run and the model reads the refusal', async () => {
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await askFor(session, 'denied', 'first');
      await session.type('n');
      await finished(session, 'denied', 'first', 'was refused');
      expect(await exists(join(world.workspace, 'denied.txt'))).toBe(false);
      expect(toolResultsOfTurn(server.requests.at(-1) ?? {}).join(' ')).toMatch(/denied/i);
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it('allow always runs it, remembers it for the workspace, and does not ask again, even in a new chat', async () => {
    const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await askFor(session, 'always', 'first');
      await session.type('a');
      await finished(session, 'always', 'first', 'ran');
      expect(await exists(join(world.workspace, 'always.txt'))).toBe(true);
      const remembered = JSON.parse(await readFile(join(world.cairnHome, 'workspace-permissions.json'), 'utf8'));
      expect(remembered.workspaces[world.workspace].allow).toContain('shell(touch always.txt)');
      await rm(join(world.workspace, 'always.txt'));
      await runsWithoutAsking(session, 'always', 'second');
    } finally {
      await session.dispose();
    }
    const next = await openChat({ bin: cli().bin, world, baseUrl: server.url });
    try {
      await rm(join(world.workspace, 'always.txt'));
      await runsWithoutAsking(next, 'always', 'third');
    } finally {
      await next.dispose();
    }
  }, 120_000);

  it('an ask rule of the user\'s permissions.json asks even for a read-only command', async () => {
    const own = await createWorld();
    await writeFile(join(own.cairnHome, 'permissions.json'), JSON.stringify({ ask: ['shell(ls*)'] }));
    const session = await openChat({ bin: cli().bin, world: own, baseUrl: server.url });
    try {
      await session.type('make listing (first)');
      await session.press('enter');
      await session.waitForText('Allow this call?');
      await session.waitForText('run: ls');
      await session.type('n');
      await finished(session, 'listing', 'first', 'was refused');
    } finally {
      await session.dispose();
    }
  }, 120_000);
});

async function runsWithoutAsking(session: TerminalSession, name: string, tag: string): Promise<void> {
  const prompt = session.watchFor('Allow this call?');
  await session.type(`make ${name} (${tag})`);
  await session.press('enter');
  await finished(session, name, tag, 'ran');
  prompt.stop();
  expect(prompt.seen()).toBe(false);
}
