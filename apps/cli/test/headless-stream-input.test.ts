import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInputLine } from '../src/commands/stream-input.js';
import { io, useTempCairnHome } from './cli-io.js';
import { camelCaseKeys, streamLineProblems } from './headless-schema.js';

useTempCairnHome();

type Line = Record<string, any>;
let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'cairn-stream-input-'));
});
afterEach(() => {
  delete process.env.OPENAI_BASE_URL;
});

/** Run the CLI in-process with `input` as its (non-terminal) stdin; resolves to the code and the parsed stdout lines. */
async function withStdin(args: string[], input: string) {
  const cli = io(args, process.env, input);
  const code = await cli.run();
  return { code, lines: cli.out().trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line), err: cli.err() };
}

const user = (content: unknown) => JSON.stringify({ type: 'user', message: { role: 'user', content } });
const streamArgs = () => ['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--input-format', 'stream-json', '--output-format', 'stream-json'];

describe('cairn --input-format stream-json', () => {
  it('runs each user line on the same agent, one result line each; a bad line is an error result and the session goes on', async () => {
    const server = await startChatCompletionsServer((body) => {
      const users = body.messages.filter((message: { role: string }) => message.role === 'user').length;
      return { text: `answer ${users}` };
    });
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const input = [user('Remember the word cobalt.'), '{"type":"user", broken', '', user([{ type: 'text', text: 'Which word?' }])].join('\n');
      const { code, lines } = await withStdin(streamArgs(), `${input}\n`);
      expect(code).toBe(1);
      expect(lines.flatMap((line, index) => streamLineProblems(line, `line ${index + 1}`))).toEqual([]);
      expect(lines.flatMap((line, index) => camelCaseKeys(line, `line ${index + 1}`))).toEqual([]);
      const results = lines.filter((line) => line.type === 'result');
      expect(results.map((line) => [line.subtype, line.is_error])).toEqual([['success', false], ['error_during_execution', true], ['success', false]]);
      expect(results[0]!.result).toBe('answer 1');
      expect(results[1]!.result).toMatch(/^stdin line 2: not JSON/);
      expect(results[1]!.error.code).toBe('invalid_input');
      // The second message continues the first's conversation: the model saw both user messages.
      expect(results[2]!.result).toBe('answer 2');
      expect(JSON.stringify(server.requests[1]!.messages)).toContain('Remember the word cobalt.');
      expect(new Set(lines.map((line) => line.session_id)).size).toBe(1);
      expect(lines.filter((line) => line.type === 'system' && line.subtype === 'init')).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('exits 0 when every line ran and finished', async () => {
    const server = await startChatCompletionsServer([{ text: 'one' }, { text: 'two' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const { code, lines } = await withStdin(streamArgs(), `${user('first')}\n${user('second')}\n`);
      expect(code).toBe(0);
      expect(lines.filter((line) => line.type === 'result').map((line) => line.result)).toEqual(['one', 'two']);
    } finally {
      await server.close();
    }
  });

  it('needs --output-format stream-json and no prompt argument; says so as a result', async () => {
    const text = await withStdin(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--input-format', 'stream-json'], user('hi'));
    expect(text.code).toBe(2);
    expect(text.err).toMatch(/--input-format stream-json needs --output-format stream-json/);
    const prompt = await withStdin([...streamArgs(), 'hello'], user('hi'));
    expect(prompt.code).toBe(2);
    expect(prompt.lines).toEqual([expect.objectContaining({ type: 'result', is_error: true, result: expect.stringMatching(/drop the prompt argument/) })]);
  });
});

describe('parseInputLine', () => {
  it('accepts Claude Code user messages and names what is wrong with anything else', () => {
    expect(parseInputLine(user('hi'))).toEqual({ kind: 'prompt', text: 'hi' });
    expect(parseInputLine(user([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]))).toEqual({ kind: 'prompt', text: 'a\nb' });
    expect(parseInputLine('   ')).toEqual({ kind: 'blank' });
    expect(parseInputLine('{"type":"assistant"}')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/type must be "user"/) });
    expect(parseInputLine(user([{ type: 'image', source: {} }]))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/only \{"type":"text"/) });
    expect(parseInputLine(user(42))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/message.content must be/) });
    expect(parseInputLine(user(''))).toMatchObject({ kind: 'invalid', reason: 'the message has no text' });
  });
});
