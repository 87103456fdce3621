import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatCompletionsServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createMemoryStore, type SDKMessage } from '../src/index.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('seed-style SDK code against an OpenAI-compatible server (OPENAI_BASE_URL)', () => {
  it('reads and edits a workspace, streams tool calls, and a follow-up sees the previous turn', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-seed-'));
    await writeFile(join(cwd, 'greeting.txt'), 'Hello, world!\n');
    const server = await startChatCompletionsServer([
      { text: 'Reading the files.', toolCalls: [{ name: 'read_file', args: { path: 'greeting.txt' } }, { name: 'list_dir', args: {} }] },
      { toolCalls: [{ name: 'search_replace', args: { path: 'greeting.txt', old_string: 'world', new_string: 'Cairn' } }] },
      { text: 'I changed the greeting to say Cairn.' },
      { text: 'Earlier I changed greeting.txt.' },
    ]);
    servers.push(server);
    const agent = await Agent.create({
      model: 'openai/gpt-4.1-mini',
      local: { cwd, store: createMemoryStore() },
      env: { OPENAI_BASE_URL: server.url },
    });
    const run = await agent.send('Change the greeting to say Cairn');
    const printed: string[] = [];
    for await (const message of run.stream()) {
      if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') printed.push(block.text);
      if (message.type === 'tool_call' && message.status !== 'running') printed.push(`[${message.name} ${message.status}]`);
    }
    const result = await run.wait();
    expect(result.status).toBe('finished');
    // The two calls of the first turn run in parallel: either may finish first.
    expect([printed[0], ...printed.slice(1, 3).sort(), ...printed.slice(3)]).toEqual(['Reading the files.', '[list_dir completed]', '[read_file completed]', '[search_replace completed]', 'I changed the greeting to say Cairn.']);
    expect(await readFile(join(cwd, 'greeting.txt'), 'utf8')).toBe('Hello, Cairn!\n');

    const followUp = await agent.send('What did you change before?');
    expect((await followUp.wait()).result).toBe('Earlier I changed greeting.txt.');
    expect(server.problems).toEqual([]);
    const last = server.requests.at(-1)!;
    const roles = (last.messages as Array<{ role: string }>).map((message) => message.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'user']);
    expect(last.stream).toBe(true);
    expect((last.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['read_file', 'search_replace', 'grep', 'run_terminal_cmd']));
    const usage = await agent.getUsage();
    expect(usage.usage.inputTokens).toBeGreaterThan(0);
    expect(usage.runs).toHaveLength(2);
    // gpt-4.1-mini is in the catalog with prices, so the runs have a cost.
    expect(usage.cost?.rawCostCents).toBeGreaterThan(0);
  });

  it('reports an unreachable endpoint as a clear run error', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-seed-'));
    const closed = await startChatCompletionsServer([]);
    await closed.close();
    const agent = await Agent.create({
      model: 'openai/some-local-model',
      local: { cwd, store: createMemoryStore() },
      env: { OPENAI_BASE_URL: closed.url },
      retry: { maxAttempts: 1 },
    });
    const messages: SDKMessage[] = [];
    const run = await agent.send('hi');
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain(closed.url);
    expect(result.error?.message).toMatch(/ECONNREFUSED/);
  });
});
