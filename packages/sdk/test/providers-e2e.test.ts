import { type FakeModelTurn, type FakeProviderServer, startFakeGeminiServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createMemoryStore, type SDKMessage } from '../src/index.js';
import { makeWorkspace, providerCases } from './provider-harness.js';

const servers: FakeProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The conversation every provider runs: reasoning + two parallel tool calls, an answer, a follow-up. */
const conversation: FakeModelTurn[] = [
  {
    reasoning: 'The user wants the launch code. I should read notes.txt and look at the folder.',
    text: 'Let me look at the workspace.',
    toolCalls: [
      { name: 'read_file', args: { path: 'notes.txt' } },
      { name: 'list_dir', args: { path: '.' } },
    ],
  },
  { reasoning: 'notes.txt has the code.', text: 'The launch code is 4217. The folder has notes.txt and todo.md.' },
  { text: 'You asked me for the launch code, and it is 4217.' },
];

describe.each(providerCases)('the same tool-using conversation through $name', (provider) => {
  it('runs reasoning, parallel tool calls on real files and a follow-up, with every request valid', async () => {
    const cwd = await makeWorkspace();
    const server = await provider.start(conversation);
    servers.push(server);
    const agent = await Agent.create({
      model: provider.model,
      local: { cwd, store: createMemoryStore() },
      env: { ...provider.env(server.url), ...(provider.providers ? { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/unused' } : {}) },
      ...(provider.providers ? { providers: provider.providers(server.url) } : {}),
      retry: { maxAttempts: 1 },
    });

    const run = await agent.send('What is the launch code in this workspace?');
    const messages: SDKMessage[] = [];
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('finished');
    expect(result.result).toBe('The launch code is 4217. The folder has notes.txt and todo.md.');
    expect(result.model).toEqual({ ...provider.model, id: provider.model.id.startsWith('anthropic/') ? 'anthropic/claude-sonnet-4-5-20250929' : provider.model.id });

    const calls = messages.filter((message): message is Extract<SDKMessage, { type: 'tool_call' }> => message.type === 'tool_call' && message.status !== 'running');
    expect(calls.map((call) => `${call.name}:${call.status}`).sort()).toEqual(['list_dir:completed', 'read_file:completed']);
    expect(calls.find((call) => call.name === 'read_file')?.result).toContain('the launch code is 4217');
    expect(calls.find((call) => call.name === 'list_dir')?.result).toContain('todo.md');

    const followUp = await agent.send('What did I ask you before?');
    const second = await followUp.wait();
    expect(second.status).toBe('finished');
    expect(second.result).toBe('You asked me for the launch code, and it is 4217.');

    expect(server.problems).toEqual([]);
    expect(server.requests).toHaveLength(3);
    expect(provider.reasoningRequested(server.requests[0]!)).toBe(true);
    // The second request answers both calls with the real tool output, in call order.
    const outputs = provider.toolOutputs(server.requests[1]!);
    expect(outputs).toHaveLength(2);
    expect(outputs[0]).toContain('the launch code is 4217');
    expect(outputs[1]).toContain('notes.txt');
    expect(outputs[1]).toContain('todo.md');
    expect(provider.reasoningPassedBack(server.requests[1]!)).toBe(true);
    // The follow-up carries the whole first run: the question, the tool round and the answer.
    const followUpBody = JSON.stringify(server.requests[2]);
    expect(followUpBody).toContain('What is the launch code in this workspace?');
    expect(followUpBody).toContain('The launch code is 4217. The folder has notes.txt and todo.md.');
    expect(followUpBody).toContain('What did I ask you before?');
    expect(provider.toolOutputs(server.requests[2]!)).toHaveLength(2);

    const usage = await agent.getUsage();
    expect(usage.runs).toHaveLength(2);
    expect(usage.usage.inputTokens).toBeGreaterThan(0);
    await agent.close?.();
  });
});

describe.each(providerCases)('$name streams served in 3-byte pieces', (provider) => {
  it('reassemble text, reasoning and tool JSON split inside UTF-8 sequences', async () => {
    const cwd = await makeWorkspace();
    const turns: FakeModelTurn[] = [
      { reasoning: 'Überlegung: 日本語のメモを読む 🧭', text: 'Ich schaue nach ✓ — einen Moment.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      { text: 'Fertig: café ☕, der Code ist 4217 (四二一七).' },
    ];
    const server = await provider.start(turns, undefined, 3);
    servers.push(server);
    const agent = await Agent.create({
      model: provider.model,
      local: { cwd, store: createMemoryStore() },
      env: provider.env(server.url),
      retry: { maxAttempts: 1 },
    });
    const run = await agent.send('Lies die Notizen.');
    const texts: string[] = [];
    for await (const message of run.stream()) if (message.type === 'assistant') for (const block of message.message.content) if (block.type === 'text') texts.push(block.text);
    const result = await run.wait();
    expect(result.error).toBeUndefined();
    expect(texts).toEqual(['Ich schaue nach ✓ — einen Moment.', 'Fertig: café ☕, der Code ist 4217 (四二一七).']);
    expect(provider.toolOutputs(server.requests[1]!)[0]).toContain('the launch code is 4217');
    expect(server.problems).toEqual([]);
  });
});

describe('the auto model', () => {
  it('resolves to a concrete model of the configured provider, reported on the run', async () => {
    const cwd = await makeWorkspace();
    const server = await startFakeGeminiServer([{ text: 'Routed.' }]);
    servers.push(server);
    // Only Gemini is configured in this environment, so auto (balanced) picks Google's cheapest balanced model.
    const agent = await Agent.create({ model: 'auto', local: { cwd, store: createMemoryStore() }, env: { GEMINI_API_KEY: 'gemini-dummy', GEMINI_BASE_URL: server.url } });
    expect(agent.model).toEqual({ id: 'auto' });
    const run = await agent.send('Hello');
    const messages: SDKMessage[] = [];
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.model).toEqual({ id: 'google/gemini-2.5-flash' });
    expect(messages.find((message) => message.type === 'system')).toMatchObject({ subtype: 'init', model: { id: 'google/gemini-2.5-flash' } });
    expect(server.received[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(server.problems).toEqual([]);
  });

  it('fails with a clear ConfigurationError when no provider is configured', async () => {
    const cwd = await makeWorkspace();
    await expect(Agent.create({ model: 'auto', local: { cwd, store: createMemoryStore() }, env: {} })).rejects.toThrow(/router \("auto-smart", "auto"\) needs at least one configured provider/);
  });
});
