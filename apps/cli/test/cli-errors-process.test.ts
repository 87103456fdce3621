import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@cairn/sdk';
import { startChatCompletionsServer, type ChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, useTempCairnHome } from './cli-io.js';
import { type BuiltCli, buildCli } from './pty/build-cli.js';

useTempCairnHome();

let cli: BuiltCli;
let server: ChatCompletionsServer;
let providerEnv: Record<string, string>;

beforeAll(async () => {
  cli = await buildCli('errors');
  // "wait" prompts run `sleep 30` (a run that stays busy until it is cancelled); a tool result gets "done".
  server = await startChatCompletionsServer((body) => {
    const last = body.messages.at(-1);
    if (last?.role === 'tool') return { text: 'done' };
    const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
    return text.includes('wait') ? { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 30' } }] } : { text: 'hello' };
  });
  providerEnv = { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat', CAIRN_MODEL: 'openai/gpt-4.1-mini' };
  Object.assign(process.env, providerEnv);
}, 120_000);

afterAll(async () => {
  for (const key of Object.keys(providerEnv ?? {})) delete process.env[key];
  await server?.close();
  cli?.dispose();
});

/** The built CLI as a real process, with this file's store and fake server. */
function cairn(args: string[]): { child: ChildProcess; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [cli.bin, ...args], { env: { ...process.env, ...providerEnv, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { child, exited: new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr }))) };
}

/** Resolves once `agentId` (or, without one, the newest agent) has a running run that reached its `sleep`. */
async function busyAgent(agentId?: string): Promise<string> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const id = agentId ?? (await Agent.list({ limit: 1 })).items[0]?.agentId;
    if (id) {
      const runs = await Agent.listRuns(id, { limit: 1 });
      const sleeping = server.requests.some((request) => request.messages.at(-1)?.role === 'user') && runs.items[0]?.status === 'running';
      if (sleeping && (await Agent.messages.listModelMessages(id)).length > 0) return id;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the agent never became busy');
}

describe('the cairn process', () => {
  it('exits quietly when the reader closes the pipe (EPIPE, as with `cairn agents | head -1`)', async () => {
    for (const args of [['agents'], ['models', '--no-servers']]) {
      const { child, exited } = cairn(args);
      // The reader is gone before the first line is written.
      child.stdout!.destroy();
      const { code, stderr } = await exited;
      expect(stderr, args.join(' ')).toBe('');
      expect(code, args.join(' ')).toBe(0);
    }
  });

  it('a busy agent: the error names `cairn cancel` and --force; cancel ends the other process\'s run; --force takes it over', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-busy-'));
    const holder = cairn(['--cwd', cwd, 'wait for the deploy']);
    const agentId = await busyAgent();

    const busy = io(['--cwd', cwd, '--resume', agentId, 'hi']);
    expect(await busy.run()).toBe(1);
    expect(busy.err()).toMatch(
      new RegExp(`^cairn: Agent ${agentId} is busy with run run-[\\w-]+ in another process\\. Wait for it to finish, cancel it with \`cairn cancel ${agentId}\`, or pass --force to cancel it and continue here\\.$`, 'm'),
    );

    const cancel = io(['cancel', agentId]);
    expect(await cancel.run()).toBe(0);
    expect(cancel.out()).toMatch(new RegExp(`^Cancelled run run-[\\w-]+ of agent ${agentId}\\. Continue with: cairn --resume ${agentId} "\\.\\.\\."\\n$`));
    const cancelled = await holder.exited;
    expect(cancelled.code).toBe(130);
    expect(cancelled.stderr).toMatch(new RegExp(`cancelled · resume with --resume ${agentId}`));
    const nothing = io(['cancel', agentId]);
    expect(await nothing.run()).toBe(0);
    expect(nothing.out()).toBe(`Agent ${agentId} has no running run: nothing to cancel.\n`);

    const again = cairn(['--cwd', cwd, '--resume', agentId, 'wait once more']);
    await busyAgent(agentId);
    const forced = io(['--cwd', cwd, '--resume', agentId, '--force', 'hi']);
    expect(await forced.run()).toBe(0);
    expect(forced.out()).toBe('hello\n');
    expect((await again.exited).code).toBe(130);
  }, 60_000);

  it('`cairn cancel <unknown>` says how to list agents', async () => {
    const cancel = io(['cancel', 'agent-nope']);
    expect(await cancel.run()).toBe(2);
    expect(cancel.err()).toBe('cairn: No agent agent-nope in the store. List agents with `cairn agents`.\n');
  });
});
