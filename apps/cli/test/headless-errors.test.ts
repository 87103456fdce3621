import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPromptCommand } from '../src/commands/run-command.js';
import { capturedOutput, io, useTempCairnHome } from './cli-io.js';
import { resultMessage } from './headless-schema.js';

useTempCairnHome();

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'cairn-headless-errors-'));
});
afterEach(() => {
  delete process.env.OPENAI_BASE_URL;
  delete process.env.CAIRN_RETRY_MAX_ATTEMPTS;
});

/** stdout is exactly one error result that fits Claude Code's shape; returns it. */
function onlyErrorResult(out: string) {
  const lines = out.trim().split('\n');
  expect(lines).toHaveLength(1);
  const result = JSON.parse(lines[0]!);
  expect(resultMessage(result, '$')).toEqual([]);
  expect(result).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });
  expect(result.errors).toEqual([result.result]);
  return result;
}

describe('configuration errors are JSON results when JSON was asked for', () => {
  it('no model: exit 2, the fix in the result, the same line on stderr', async () => {
    for (const format of ['json', 'stream-json']) {
      const cli = io(['--cwd', cwd, '--output-format', format, 'hi'], {});
      expect(await cli.run()).toBe(2);
      const result = onlyErrorResult(cli.out());
      expect(result.result).toMatch(/^No model selected\. Pass --model/);
      expect(result.error).toEqual({ message: result.result, code: 'configuration_error' });
      expect(cli.err()).toMatch(/^cairn: No model selected/);
    }
  });

  it('a bad flag value names the flag, as text on stderr and as a result on stdout', async () => {
    const cli = io(['--cwd', cwd, '--output-format', 'json', '--max-steps', '0', 'hi']);
    expect(await cli.run()).toBe(2);
    const result = onlyErrorResult(cli.out());
    expect(result.result).toMatch(/--max-steps/);
    expect(cli.err()).toMatch(/--max-steps/);
    const text = io(['--cwd', cwd, '--max-steps', '0', 'hi']);
    expect(await text.run()).toBe(2);
    expect(text.out()).toBe('');
  });

  it('an unknown agent for --resume', async () => {
    const cli = io(['--cwd', cwd, '--output-format=json', '--resume', 'agent-does-not-exist', 'hi']);
    expect(await cli.run()).not.toBe(0);
    const result = onlyErrorResult(cli.out());
    expect(result.result).toMatch(/agent-does-not-exist/);
  });

  it('an unknown provider', async () => {
    const cli = io(['--cwd', cwd, '--model', 'nowhere/x', '--output-format', 'stream-json', 'hi']);
    expect(await cli.run()).toBe(2);
    expect(onlyErrorResult(cli.out()).result).toMatch(/Unknown model provider "nowhere"/);
  });
});

describe('the resume hint in text mode', () => {
  it('follows a failed run too', async () => {
    const closed = await startChatCompletionsServer([]);
    await closed.close();
    process.env.OPENAI_BASE_URL = closed.url;
    process.env.CAIRN_RETRY_MAX_ATTEMPTS = '1';
    const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'hi']);
    expect(await cli.run()).toBe(1);
    expect(cli.err()).toMatch(/\[agent (agent-[\w-]+) · run run-[\w-]+ · failed · resume with --resume \1\]/);
  });

  it('follows a cancelled run too, with exit code 130; json says the same as a result', async () => {
    const server = await startChatCompletionsServer([{ text: 'never read' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      for (const outputFormat of ['text', 'json'] as const) {
        const { stdout, stderr, out, err } = capturedOutput();
        const code = await runPromptCommand({
          prompt: 'hi', cwd, model: 'openai/gpt-4.1-mini', outputFormat, sandbox: false, stdout, stderr, color: false, env: process.env, signal: AbortSignal.abort(),
        });
        expect(code).toBe(130);
        if (outputFormat === 'text') expect(err()).toMatch(/\[agent (agent-[\w-]+) · run run-[\w-]+ · cancelled · resume with --resume \1\]/);
        else expect(JSON.parse(out())).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, status: 'cancelled' });
      }
    } finally {
      await server.close();
    }
  });
});
