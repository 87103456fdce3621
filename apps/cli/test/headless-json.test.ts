import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { io, useTempCairnHome } from './cli-io.js';
import { camelCaseKeys, resultMessage, streamLineProblems } from './headless-schema.js';

useTempCairnHome();

type Line = Record<string, any>;
const model = ['--model', 'openai/gpt-4.1-mini'];
let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'cairn-headless-'));
  await writeFile(join(cwd, 'notes.md'), '# Notes\nship it\n');
});
afterEach(() => {
  delete process.env.OPENAI_BASE_URL;
});

/** A fake OpenAI-compatible server answering with a tool call, then text. */
async function toolThenText() {
  const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] }, { text: 'The notes say: ship it.' }]);
  process.env.OPENAI_BASE_URL = server.url;
  return server;
}

const toolNamesOf = (request: Record<string, any>) => (request.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);

describe('cairn --output-format json', () => {
  it('prints exactly one result object with the fields and types Claude Code documents', async () => {
    const server = await toolThenText();
    try {
      const cli = io(['--cwd', cwd, ...model, '--output-format', 'json', 'What do the notes say?']);
      expect(await cli.run()).toBe(0);
      const lines = cli.out().trim().split('\n');
      expect(lines).toHaveLength(1);
      const result = JSON.parse(lines[0]!) as Line;
      expect(resultMessage(result, '$')).toEqual([]);
      expect(camelCaseKeys(result)).toEqual([]);
      expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'The notes say: ship it.', num_turns: 2, status: 'finished' });
      expect(result.session_id).toMatch(/^agent-/);
      expect(result.run_id).toMatch(/^run-/);
      // The fake server reports 100 + i prompt tokens (none cached) and 20 completion tokens per call.
      expect(result.usage).toEqual({ input_tokens: 201, output_tokens: 40, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
      const agents = io(['agents', '--json']);
      expect(await agents.run()).toBe(0);
      expect(JSON.parse(agents.out()).map((agent: { agentId: string }) => agent.agentId)).toContain(result.session_id);
      expect(server.problems).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('lists the tool calls the permission rules refused in permission_denials', async () => {
    await mkdir(join(cwd, '.cairn'));
    await writeFile(join(cwd, '.cairn', 'permissions.json'), JSON.stringify({ deny: ['read(.env)'] }));
    await writeFile(join(cwd, '.env'), 'TOKEN=x\n');
    const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'read_file', args: { path: '.env' } }] }, { text: 'I may not read it.' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const cli = io(['--cwd', cwd, ...model, '--output-format', 'json', 'Read .env']);
      expect(await cli.run()).toBe(0);
      const result = JSON.parse(cli.out()) as Line;
      expect(resultMessage(result, '$')).toEqual([]);
      expect(result.permission_denials).toEqual([{ tool_name: 'read_file', tool_use_id: 'call_fake_1_1', tool_input: { path: '.env' } }]);
    } finally {
      await server.close();
    }
  });

  it('says error_max_turns when the run stops at --max-steps, with a non-zero exit code', async () => {
    const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const cli = io(['--cwd', cwd, ...model, '--max-steps', '1', '--output-format', 'json', 'Read the notes forever']);
      expect(await cli.run()).toBe(1);
      const result = JSON.parse(cli.out()) as Line;
      expect(resultMessage(result, '$')).toEqual([]);
      expect(result).toMatchObject({ subtype: 'error_max_turns', is_error: true, status: 'error', num_turns: 1, error: { code: 'max_steps' } });
      expect(result.errors).toEqual([result.result]);
      expect(result.result).toMatch(/maxSteps/);
    } finally {
      await server.close();
    }
  });
});

describe('cairn --mode plan --plan-approve --output-format json', () => {
  it('sums both runs into one result and carries the plan', async () => {
    const plan = { name: 'Greeting', overview: 'Write hello.txt.', plan: 'Create hello.txt.', todos: [{ id: 'write', content: 'Write hello.txt', dependencies: [] }] };
    const server = await startChatCompletionsServer((body) => {
      const last = body.messages.at(-1);
      const planning = toolNamesOf(body).includes('create_plan');
      if (last.role === 'user') return planning ? { toolCalls: [{ name: 'create_plan', args: plan }] } : { toolCalls: [{ name: 'write', args: { path: 'hello.txt', contents: 'hi\n' } }] };
      return { text: planning ? 'The plan awaits approval.' : 'Done.' };
    });
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const cli = io(['--cwd', cwd, ...model, '--mode', 'plan', '--plan-approve', '--output-format', 'json', 'Add a greeting']);
      expect(await cli.run()).toBe(0);
      const result = JSON.parse(cli.out()) as Line;
      expect(resultMessage(result, '$')).toEqual([]);
      expect(result).toMatchObject({ subtype: 'success', result: 'Done.', num_turns: 4, plan: { name: 'Greeting', todos: [{ id: 'write' }] } });
      expect(result.usage.output_tokens).toBe(80);
    } finally {
      await server.close();
    }
  });
});

describe('cairn --output-format stream-json', () => {
  it('streams init, assistant, tool results and the same result line, in snake_case', async () => {
    const server = await toolThenText();
    try {
      const cli = io(['--cwd', cwd, ...model, '--output-format', 'stream-json', 'What do the notes say?']);
      expect(await cli.run()).toBe(0);
      const lines = cli.out().trim().split('\n').map((line) => JSON.parse(line) as Line);
      expect(lines.flatMap((line, index) => streamLineProblems(line, `line ${index + 1}`))).toEqual([]);
      expect(lines.flatMap((line, index) => camelCaseKeys(line, `line ${index + 1}`))).toEqual([]);
      const [init] = lines;
      expect(init).toMatchObject({ type: 'system', subtype: 'init', cwd: expect.any(String), permission_mode: 'default' });
      // Exactly the tools the model was offered in its first request, in that order.
      expect(init!.tools).toEqual(toolNamesOf(server.requests[0]!));
      expect(new Set(lines.map((line) => line.session_id))).toEqual(new Set([init!.session_id]));

      const assistants = lines.filter((line) => line.type === 'assistant');
      expect(assistants.map((line) => line.message.model)).toEqual([init!.model, init!.model]);
      const toolUse = assistants[0]!.message.content.find((block: Line) => block.type === 'tool_use');
      expect(toolUse).toMatchObject({ name: 'read_file', input: { path: 'notes.md' } });
      expect(assistants[0]!.message.usage).toEqual({ input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
      const toolResult = lines.find((line) => line.type === 'user')!.message.content[0];
      expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: toolUse.id, is_error: false });
      expect(toolResult.content).toContain('ship it');
      expect(assistants[1]!.message.content).toEqual([{ type: 'text', text: 'The notes say: ship it.' }]);

      const types = lines.map((line) => line.type);
      expect(types.indexOf('user')).toBeGreaterThan(types.indexOf('assistant'));
      const result = lines.at(-1)!;
      expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'The notes say: ship it.', num_turns: 2 });
      expect(lines.filter((line) => line.type === 'result')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('lists the plan-mode tools when the run starts in plan mode', async () => {
    const server = await startChatCompletionsServer([{ text: 'A plan needs more detail.' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const cli = io(['--cwd', cwd, ...model, '--mode', 'plan', '--output-format', 'stream-json', 'Plan a greeting']);
      expect(await cli.run()).toBe(0);
      const init = JSON.parse(cli.out().split('\n')[0]!) as Line;
      expect(init).toMatchObject({ subtype: 'init', permission_mode: 'plan', mode: 'plan' });
      expect(init.tools).toEqual(toolNamesOf(server.requests[0]!));
      expect(init.tools).toContain('create_plan');
    } finally {
      await server.close();
    }
  });
});
