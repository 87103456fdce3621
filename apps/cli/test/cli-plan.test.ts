import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';

beforeAll(async () => {
  process.env.CAIRN_HOME = await mkdtemp(join(tmpdir(), 'cairn-home-'));
});

async function cli(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const code = await runCli({ argv: ['node', 'cairn', ...args], stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, env: process.env });
  return { code, out, err };
}

const planArgs = {
  name: 'Add a greeting',
  overview: 'Write hello.txt.',
  plan: 'Create `hello.txt` with a greeting.',
  todos: [{ id: 'write', content: 'Write hello.txt', dependencies: [] }],
};

describe('cairn --mode plan', () => {
  it('prints the plan and how to execute it; --resume --mode agent executes it', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-plan-'));
    const server = await startChatCompletionsServer((body) => {
      const last = body.messages.at(-1);
      const tools = (body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
      if (last.role === 'user' && tools.includes('create_plan')) return { toolCalls: [{ name: 'create_plan', args: planArgs }] };
      if (last.role === 'user') return { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hello\n' } }] };
      return { text: tools.includes('create_plan') ? 'The plan awaits your approval.' : 'Done.' };
    });
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const planned = await cli(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--mode', 'plan', 'Add a greeting file']);
      expect(planned.code).toBe(0);
      expect(planned.out).toContain('# Plan: Add a greeting');
      expect(planned.out).toContain('- [ ] write: Write hello.txt');
      const agentId = /--resume (agent-[\w-]+) --mode agent "go"/.exec(planned.err)?.[1];
      expect(agentId).toBeDefined();
      await expect(readFile(join(cwd, 'hello.txt'), 'utf8')).rejects.toThrow();
      const executed = await cli(['--cwd', cwd, '--resume', agentId!, '--mode', 'agent', 'go']);
      expect(executed.code).toBe(0);
      expect(await readFile(join(cwd, 'hello.txt'), 'utf8')).toBe('hello\n');
      expect(server.problems).toEqual([]);
    } finally {
      delete process.env.OPENAI_BASE_URL;
      await server.close();
    }
  });

  it('--plan-approve executes the proposed plan in the same invocation', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-plan-'));
    const server = await startChatCompletionsServer((body) => {
      const last = body.messages.at(-1);
      const tools = (body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
      if (last.role === 'user' && tools.includes('create_plan')) return { toolCalls: [{ name: 'create_plan', args: planArgs }] };
      if (last.role === 'user') return { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hi\n' } }] };
      return { text: 'ok' };
    });
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const result = await cli(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--mode', 'plan', '--plan-approve', 'Add a greeting file']);
      expect(result.code).toBe(0);
      expect(result.out).toContain('# Plan: Add a greeting');
      expect(await readFile(join(cwd, 'hello.txt'), 'utf8')).toBe('hi\n');
    } finally {
      delete process.env.OPENAI_BASE_URL;
      await server.close();
    }
  });
});
