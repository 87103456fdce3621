import { expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentOptions, LanguageModelV1CallOptions, ToolResultPart } from '@cairn/core';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { createCairn, createMemoryStore, defaultPlugins, type RunResult } from '../src/index.js';

export const modelId = 'scripted/m';

/**
 * The attack layout: `<base>/proj` is the workspace, `<base>/proj-evil` its sibling sharing the name
 * prefix, `<base>/home` a fake HOME. The workspace is a git repository with the protected files an
 * attacker wants: `.git/config` and `.git/hooks`, `.cairn/`, `.cursor/mcp.json` and `.bashrc`.
 */
export interface Fixture {
  base: string;
  cwd: string;
  evil: string;
  home: string;
}

export async function createFixture(): Promise<Fixture> {
  // realpath: on some systems the temp dir is itself a symlink; tools report canonical paths.
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-sec-')));
  const cwd = join(base, 'proj');
  const evil = join(base, 'proj-evil');
  const home = join(base, 'home');
  for (const folder of [cwd, evil, join(evil, 'dir'), home, join(home, '.ssh')]) await mkdir(folder, { recursive: true });
  await writeFile(join(evil, 'secret.txt'), 'evil secret\n');
  await writeFile(join(evil, 'dir', 'inner.txt'), 'inner\n');
  await writeFile(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  await writeFile(join(home, '.bashrc'), 'echo home\n');
  await writeFile(join(cwd, 'a.txt'), 'alpha\n');
  await writeFile(join(cwd, '.bashrc'), 'echo workspace\n');
  git(cwd, 'init', '-q');
  await mkdir(join(cwd, '.cairn'), { recursive: true });
  await writeFile(join(cwd, '.cairn', 'notes.md'), 'agent notes\n');
  await mkdir(join(cwd, '.cursor'), { recursive: true });
  await writeFile(join(cwd, '.cursor', 'mcp.json'), '{"mcpServers":{}}\n');
  return { base, cwd, evil, home };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } }).toString();
}

/**
 * Everything an attack must leave alone, hashed: the sibling folder, the fake HOME, and the
 * protected paths inside the workspace. Symlinks are recorded by target, other special files by
 * kind, regular files by content and mode, folders by their presence (a new empty folder counts).
 */
export async function protectedSnapshot(fixture: Fixture): Promise<Record<string, string>> {
  const roots = [fixture.evil, fixture.home, join(fixture.cwd, '.git'), join(fixture.cwd, '.cairn'), join(fixture.cwd, '.cursor', 'mcp.json'), join(fixture.cwd, '.bashrc')];
  const result: Record<string, string> = {};
  for (const root of roots) Object.assign(result, await hashTree(root, root.slice(fixture.base.length + 1)));
  return result;
}

/** Hash of every entry under `path` (a file or a folder), keyed by `label`/relative path. */
export async function hashTree(path: string, label = '.'): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const visit = async (absolute: string, key: string) => {
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(absolute);
    } catch {
      result[key] = 'missing';
      return;
    }
    if (info.isSymbolicLink()) result[key] = `link:${await readlink(absolute)}`;
    else if (info.isDirectory()) {
      result[key] = `dir:${(info.mode & 0o7777).toString(8)}`;
      for (const name of (await readdir(absolute)).sort()) await visit(join(absolute, name), `${key}/${name}`);
    } else if (info.isFile()) {
      result[key] = `file:${(info.mode & 0o7777).toString(8)}:${info.nlink}:${createHash('sha256').update(await readFile(absolute)).digest('hex')}`;
    } else result[key] = 'special';
  };
  await visit(path, label);
  return result;
}

/** An environment with a fake HOME and an empty user layer, so this machine's settings never leak in. */
export function agentEnv(fixture: Fixture, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, HOME: fixture.home, CAIRN_HOME: join(fixture.home, '.cairn'), ...extra };
}

export interface AgentRun {
  model: ReturnType<typeof scriptedModel>;
  result: RunResult;
}

/**
 * Runs one send of an SDK agent with every default plugin over a scripted model. The model is the
 * attacker: each turn's tool calls go through the whole runtime (schema, permissions, mode, tool).
 */
export type AgentRunOptions = Omit<Partial<AgentOptions>, 'local'> & { local?: Partial<NonNullable<AgentOptions['local']>>; prompt?: string; signal?: AbortSignal };

export async function runAgent(fixture: Fixture, turns: ScriptedTurn[], options: AgentRunOptions = {}): Promise<AgentRun> {
  const model = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
  const { prompt, signal, local, env, ...rest } = options;
  const agent = await Agent.create({
    model: modelId,
    ...rest,
    local: { cwd: fixture.cwd, store: createMemoryStore(), ...local },
    env: env ?? agentEnv(fixture),
  });
  const run = await agent.send(prompt ?? 'attack', signal ? { signal } : {});
  const result = await run.wait();
  return { model, result };
}

export interface SeenResult {
  toolName: string;
  isError: boolean;
  text: string;
}

/** The tool results the model received in its `callIndex`-th request, by tool call id. */
export function resultsSeen(call: LanguageModelV1CallOptions | undefined): Record<string, SeenResult> {
  if (!call) throw new Error('the model was not called again after the tool calls');
  const seen: Record<string, SeenResult> = {};
  for (const message of call.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content as ToolResultPart[]) {
      const output = part.output;
      const isError = output.type === 'error-text' || output.type === 'error-json';
      const text =
        output.type === 'text' || output.type === 'error-text'
          ? output.value
          : output.type === 'content'
            ? output.value.map((item) => (item.type === 'text' ? item.text : `[image ${item.mediaType}]`)).join('\n')
            : JSON.stringify(output.value);
      seen[part.toolCallId] = { toolName: part.toolName, isError, text };
    }
  }
  return seen;
}

/** One scripted turn calling every attack at once (parallel tool calls), ids `a0`, `a1`, ... */
export function attackTurn(calls: Array<{ name: string; args: unknown }>, prefix = 'a'): ScriptedTurn {
  return { toolCalls: calls.map((call, index) => ({ ...call, id: `${prefix}${index}` })) };
}

export type Call = { name: string; args: Record<string, unknown> };

/** Runs all calls in one turn (then a closing text turn); returns what the model read back, in call order. */
export async function attack(fixture: Fixture, calls: Call[], options: AgentRunOptions = {}): Promise<SeenResult[]> {
  const { model, result } = await runAgent(fixture, [attackTurn(calls), { text: 'done' }], options);
  expect(result.status).toBe('finished');
  const seen = resultsSeen(model.calls[1]);
  return calls.map((_call, index) => seen[`a${index}`] as SeenResult);
}
