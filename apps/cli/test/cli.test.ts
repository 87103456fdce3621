import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { io, useTempCairnHome } from './cli-io.js';

useTempCairnHome();

describe('cairn "prompt"', () => {
  it('streams the answer to stdout and one line per tool call to stderr', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    await writeFile(join(cwd, 'notes.md'), '# Notes\nship it\n');
    const server = await startChatCompletionsServer([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] }, { text: 'The notes say: ship it.' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', 'What', 'do', 'the', 'notes', 'say?']);
      expect(await cli.run()).toBe(0);
      expect(cli.out()).toBe('The notes say: ship it.\n');
      expect(cli.err()).toMatch(/✓ read_file notes\.md/);
      expect(cli.err()).toMatch(/resume with --resume agent-/);
      expect(server.problems).toEqual([]);
      const agentId = /--resume (agent-[\w-]+)/.exec(cli.err())?.[1];
      const agents = io(['agents', '--json']);
      expect(await agents.run()).toBe(0);
      expect(JSON.parse(agents.out()).map((agent: { agentId: string }) => agent.agentId)).toContain(agentId);
      const runs = io(['runs', agentId!]);
      expect(await runs.run()).toBe(0);
      expect(runs.out()).toMatch(/finished/);
    } finally {
      delete process.env.OPENAI_BASE_URL;
      await server.close();
    }
  });

  it('refuses headless-only flags without a prompt instead of opening the chat and ignoring them', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const cli = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--output-format', 'json', '--max-steps', '3']);
    expect(await cli.run()).toBe(2);
    expect(cli.err()).toBe('cairn: --output-format json, --max-steps are for headless runs: pass a prompt (as arguments or on stdin), or leave them out to open the chat.\n');
    expect(cli.out()).toBe('');
  });

  it('prints JSON and stream-JSON output formats', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const server = await startChatCompletionsServer([{ text: 'hello' }]);
    process.env.OPENAI_BASE_URL = server.url;
    try {
      const json = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--output-format', 'json', 'hi']);
      expect(await json.run()).toBe(0);
      expect(JSON.parse(json.out())).toMatchObject({ status: 'finished', result: 'hello' });
      const streamed = io(['--cwd', cwd, '--model', 'openai/gpt-4.1-mini', '--output-format', 'stream-json', 'hi']);
      expect(await streamed.run()).toBe(0);
      const lines = streamed.out().trim().split('\n').map((line) => JSON.parse(line));
      expect(lines[0]).toMatchObject({ type: 'system', subtype: 'init' });
      expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'hello' });
    } finally {
      delete process.env.OPENAI_BASE_URL;
      await server.close();
    }
  });

  it('says in one line how to fix a missing model, an unknown provider, a missing key and an unreachable endpoint', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const noModel = io(['--cwd', cwd, 'hi'], {});
    expect(await noModel.run()).toBe(2);
    expect(noModel.err()).toMatch(/^cairn: No model selected\. Pass --model/);
    const unknown = io(['--cwd', cwd, '--model', 'nowhere/x', 'hi']);
    expect(await unknown.run()).toBe(2);
    expect(unknown.err().trim().split('\n')).toHaveLength(1);
    expect(unknown.err()).toMatch(/Unknown model provider "nowhere"/);
    const savedKey = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    const noKey = io(['--cwd', cwd, '--model', 'anthropic/claude-sonnet-4-5', 'hi']);
    expect(await noKey.run()).toBe(2);
    expect(noKey.err()).toMatch(/ANTHROPIC_API_KEY/);
    if (savedKey) process.env.ANTHROPIC_API_KEY = savedKey;
    const closed = await startChatCompletionsServer([]);
    await closed.close();
    process.env.OLLAMA_BASE_URL = closed.url;
    process.env.CAIRN_RETRY_MAX_ATTEMPTS = '1';
    try {
      const unreachable = io(['--cwd', cwd, '--model', 'ollama/qwen3', 'hi']);
      expect(await unreachable.run()).toBe(1);
      expect(unreachable.err()).toMatch(/Cannot reach Ollama at .* \(ECONNREFUSED\)\. Start Ollama/);
    } finally {
      delete process.env.OLLAMA_BASE_URL;
      delete process.env.CAIRN_RETRY_MAX_ATTEMPTS;
    }
  });
});

describe('cairn index / search through the command line', () => {
  it('index and search use the workspace given by --cwd, after the subcommand or before it', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-cli-index-'));
    await writeFile(join(cwd, 'ledger.ts'), 'export function reconcileLedgerEntries(entries: number[]) {\n  return entries.reduce((sum, entry) => sum + entry, 0);\n}\n');
    const index = io(['index', '--cwd', cwd]);
    expect(await index.run()).toBe(0);
    expect(index.err() + index.out()).toMatch(/Indexed 1 files/);
    const search = io(['search', 'reconcile ledger entries', '--cwd', cwd, '--json']);
    expect(await search.run()).toBe(0);
    expect(JSON.parse(search.out())).toEqual([expect.objectContaining({ path: 'ledger.ts', startLine: 1, endLine: 3, symbol: 'reconcileLedgerEntries' })]);
    const before = io(['--cwd', cwd, 'search', 'reconcile ledger entries', '--limit', '1']);
    expect(await before.run()).toBe(0);
    expect(before.out()).toMatch(/^ledger\.ts:1-3/);
  });
});
