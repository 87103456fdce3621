import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TerminalSession } from './terminal-session.js';

export const testModel = 'openai/gpt-4.1-mini';

/** A user's world for one test: a project folder, a home and a Cairn store, all in temp folders. */
export interface CairnWorld {
  workspace: string;
  home: string;
  cairnHome: string;
}

export async function createWorld(): Promise<CairnWorld> {
  // realpath: macOS and some CI machines put tmpdir behind a symlink, and the CLI prints real paths.
  const root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-pty-')));
  const world = { workspace: join(root, 'project'), home: join(root, 'home'), cairnHome: join(root, 'home', '.cairn') };
  await Promise.all([mkdir(world.workspace), mkdir(world.cairnHome, { recursive: true })]);
  return world;
}

/** How screenshots show the world's temp folders: as a user's own project in their home. */
export function screenshotPaths(world: CairnWorld): Array<[string, string]> {
  return [
    [world.workspace, '~/my-project'],
    [world.home, '~'],
  ];
}

export interface StartCairnOptions {
  bin: string;
  world: CairnWorld;
  /** The fake Chat Completions server's base URL. */
  baseUrl: string;
  /** Arguments after `--model`; none opens the interactive chat. */
  args?: string[];
  env?: Record<string, string>;
}

/**
 * `cairn` as a user starts it on a 100x30 xterm: a clean environment (no CI variable, which makes
 * terminal UIs print only final frames), the OpenAI wire pointed at the fake server.
 */
export function startCairn(options: StartCairnOptions): TerminalSession {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.world.home,
    CAIRN_HOME: options.world.cairnHome,
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: 'C.UTF-8',
    OPENAI_API_KEY: 'sk-dummy',
    OPENAI_BASE_URL: options.baseUrl,
    OPENAI_API: 'chat',
    ...options.env,
  };
  return new TerminalSession({
    command: process.execPath,
    args: [options.bin, '--model', testModel, ...(options.args ?? [])],
    cwd: options.world.workspace,
    env,
  });
}

/** The chat's footer once the agent is ready: `agent-… · openai/gpt-4.1-mini · agent mode · … · /help`. */
export const readyFooter = /agent-\S+ · \S+ · \w+ mode · .*\/help/;

/** Starts the chat and waits until its agent is ready for a message. */
export async function openChat(options: StartCairnOptions): Promise<TerminalSession> {
  const session = startCairn(options);
  try {
    await session.waitForText(readyFooter, 60_000);
  } catch (error) {
    await session.dispose();
    throw error;
  }
  return session;
}

/** The footer once a finished run's tokens are counted in (`· 104 in · 20 out`). */
export const countedFooter = / · [1-9][\d,]* in · [\d,]+ out/;

/** Waits until no run goes on and the footer has counted the tokens: the screen is settled. */
export async function waitForIdle(session: TerminalSession): Promise<void> {
  await session.waitForNoText('Ctrl+C cancels');
  await session.waitForText(countedFooter);
}
