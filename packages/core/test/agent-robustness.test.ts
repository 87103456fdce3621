import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, ProviderError, type InteractionUpdate } from '../src/index.js';
import { echoTool, setup, tempWorkspace } from './helpers.js';

const model = 'scripted/scripted-model';

describe('tool calls', () => {
  it('runs the independent calls of one turn in parallel', async () => {
    const log: string[] = [];
    const { Agent } = setup(
      [{ toolCalls: [{ name: 'echo', args: { text: 'a' } }, { name: 'echo', args: { text: 'b' } }] }, { text: 'ok' }],
      [echoTool({ delayMs: 100, log })],
    );
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('finished');
    expect(log.slice(0, 2).sort()).toEqual(['start:a', 'start:b']);
  });

  it('turns invalid JSON, unknown tools, schema failures and throwing tools into error results the model sees', async () => {
    const failing = defineTool({
      id: 'boom', name: 'boom', description: 'Always fails.', inputSchema: z.object({}), readOnly: true, category: 'custom',
      execute() {
        throw new Error('disk on fire');
      },
    });
    const { Agent, model: scripted } = setup(
      [
        {
          toolCalls: [
            { name: 'echo', rawArgs: '{"text": "unterminated' },
            { name: 'nope', args: {} },
            { name: 'echo', args: { text: 42 } },
            { name: 'boom', args: {} },
          ],
        },
        { text: 'recovered' },
      ],
      [echoTool(), failing],
    );
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('finished');
    const toolMessage = scripted.calls[1]!.prompt.find((message) => message.role === 'tool');
    const outputs = toolMessage?.role === 'tool' ? toolMessage.content.map((part) => part.output) : [];
    expect(outputs.map((output) => output.type)).toEqual(['error-text', 'error-text', 'error-text', 'error-text']);
    const texts = outputs.map((output) => String(output.value));
    expect(texts[0]).toMatch(/not valid JSON/);
    expect(texts[1]).toMatch(/Unknown tool "nope".*echo/);
    expect(texts[2]).toMatch(/Invalid arguments for echo: text/);
    expect(texts[3]).toMatch(/disk on fire/);
  });

  it('ends the run with a clear error after repeated invalid tool calls', async () => {
    const { Agent } = setup([{ toolCalls: [{ name: 'missing', args: {} }] }], [echoTool()], { repeatLast: true });
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('invalid_tool_calls');
  });

  it('stops at maxSteps with a message that says how to continue', async () => {
    const { Agent } = setup([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }], [echoTool()], { repeatLast: true });
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() }, maxSteps: 2 });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'max_steps' });
    expect(result.error?.message).toMatch(/maxSteps/);
  });

  it('returns custom tool results of every shape', async () => {
    const { Agent, model: scripted } = setup([
      { toolCalls: [{ name: 'asText', args: {} }, { name: 'asJson', args: {} }, { name: 'asContent', args: {} }] },
      { text: 'done' },
    ], []);
    const agent = await Agent.create({
      model,
      local: {
        cwd: await tempWorkspace(),
        customTools: {
          asText: { description: 'text', inputSchema: z.object({}), execute: () => 'plain' },
          asJson: { description: 'json', inputSchema: { jsonSchema: { type: 'object' } }, execute: () => ({ count: 3 }) },
          asContent: { description: 'content', inputSchema: z.object({}), execute: () => ({ content: [{ type: 'text', text: 'bad' }], isError: true, structuredContent: { code: 7 } }) },
        },
      },
    });
    await (await agent.send('go')).wait();
    const toolMessage = scripted.calls[1]!.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.role === 'tool' && toolMessage.content.map((part) => part.output)).toEqual([
      { type: 'text', value: 'plain' },
      { type: 'text', value: '{"count":3}' },
      { type: 'error-text', value: 'bad\n{"code":7}' },
    ]);
  });
});

describe('cancel', () => {
  it('cancels during a slow tool within a second, keeping the partial output', async () => {
    const { Agent } = setup([{ text: 'Working on it.', toolCalls: [{ name: 'echo', args: { text: 'slow' } }] }], [echoTool({ delayMs: 30_000 })]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const run = await agent.send('go');
    for await (const message of run.stream()) {
      if (message.type === 'tool_call' && message.status === 'running') break;
    }
    const started = Date.now();
    await run.cancel();
    const result = await run.wait();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.status).toBe('cancelled');
    const turns = await run.conversation();
    expect(turns[0]).toMatchObject({ type: 'agentConversationTurn', turn: { userMessage: { text: 'go' } } });
    const messages = await Agent.messages.listModelMessages(agent.agentId);
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(JSON.stringify(assistant?.content)).toContain('Working on it.');
    const tool = messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(tool?.content)).toContain('cancelled');
  });

  it('cancels a slow model stream and keeps the text streamed so far', async () => {
    const { Agent } = setup([{ text: 'one two three four five six seven', delayMs: 200 }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const deltas: string[] = [];
    let firstDelta!: () => void;
    const streaming = new Promise<void>((resolve) => (firstDelta = resolve));
    const run = await agent.send('go', {
      onDelta: ({ update }) => {
        if (update.type !== 'text-delta') return;
        deltas.push(update.text);
        firstDelta();
      },
    });
    // Cancel once text is streaming (not after a fixed time: a loaded machine streams later).
    await streaming;
    await run.cancel();
    expect((await run.wait()).status).toBe('cancelled');
    const messages = await Agent.messages.listModelMessages(agent.agentId);
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(deltas.length).toBeGreaterThan(0);
    expect(JSON.stringify(assistant?.content)).toContain(deltas.join('').trim().split(' ')[0]);
  });
});

describe('streaming and backpressure', () => {
  it('awaits onDelta before the next update, and delivers every update in order', async () => {
    const { Agent } = setup([{ text: 'a b c d e' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const order: string[] = [];
    let inFlight = 0;
    const run = await agent.send('go', {
      onDelta: async ({ update }) => {
        inFlight++;
        expect(inFlight).toBe(1);
        if (update.type === 'text-delta') order.push(update.text);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
      },
    });
    await run.wait();
    expect(order.join('')).toBe('a b c d e');
  });

  it('queues a second send behind the active run, and local.force cancels the active run', async () => {
    const { Agent } = setup([{ text: 'slow answer', delayMs: 300 }, { text: 'second' }, { text: 'third' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const first = await agent.send('one');
    const second = await agent.send('two');
    const [firstResult, secondResult] = await Promise.all([first.wait(), second.wait()]);
    expect(firstResult.status).toBe('finished');
    expect(secondResult.result).toBe('second');
    // Whether the stuck run reached the model before it was cancelled is a race: answer by prompt.
    const { Agent: Agent2 } = setup(
      [(call) => (JSON.stringify(call.prompt.at(-1)).includes('two') ? { text: 'forced' } : { text: 'never finishes', delayMs: 10_000 })],
      [],
      { repeatLast: true },
    );
    const other = await Agent2.create({ model, local: { cwd: await tempWorkspace() } });
    const stuck = await other.send('one');
    const forced = await other.send('two', { local: { force: true } });
    expect((await stuck.wait()).status).toBe('cancelled');
    expect((await forced.wait()).result).toBe('forced');
  });
});

describe('model failures', () => {
  it('retries a retryable failure before the stream started, with a retry update', async () => {
    const { Agent } = setup([{ throws: new ProviderError('overloaded', { provider: 'scripted', status: 529, retryAfterMs: 10 }) }, { text: 'after retry' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() }, retry: { initialDelayMs: 1, maxDelayMs: 5 } });
    const updates: InteractionUpdate[] = [];
    const result = await (await agent.send('go', { onDelta: ({ update }) => void updates.push(update) })).wait();
    expect(result.result).toBe('after retry');
    expect(updates.some((update) => update.type === 'retry')).toBe(true);
  });

  it('fails at once on a 401 with the provider message', async () => {
    const { Agent, model: scripted } = setup([{ throws: new ProviderError('invalid x-api-key', { provider: 'scripted', status: 401 }) }, { text: 'never' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() }, retry: { initialDelayMs: 1 } });
    const result = await (await agent.send('go')).wait();
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/invalid x-api-key/);
    expect(scripted.calls).toHaveLength(1);
  });

  it('never runs a tool call that was cut off, and keeps the partial text marked incomplete', async () => {
    const log: string[] = [];
    const { Agent } = setup([
      {
        parts: [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Partial answer' },
          { type: 'tool-input-start', id: 'c1', toolName: 'echo' },
          { type: 'tool-input-delta', id: 'c1', delta: '{"text": "ha' },
          { type: 'error', error: new ProviderError('socket hang up', { provider: 'scripted', isRetryable: true }) },
        ],
      },
    ], [echoTool({ log })]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const run = await agent.send('go');
    const messages = [];
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();
    expect(result.status).toBe('error');
    expect(log).toEqual([]);
    expect(messages.find((message) => message.type === 'assistant')).toMatchObject({ incomplete: true, message: { content: [{ type: 'text', text: 'Partial answer' }] } });
    const history = await Agent.messages.listModelMessages(agent.agentId);
    expect(JSON.stringify(history)).toContain('Partial answer');
    expect(JSON.stringify(history)).not.toContain('tool-call');
  });
});

describe('resume and modes', () => {
  it('resumes an agent from the store and continues its conversation', async () => {
    const { Agent, model: scripted } = setup([{ text: 'first answer' }, { text: 'second answer' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    await (await agent.send('first')).wait();
    await agent.close();
    const resumed = await Agent.resume(agent.agentId);
    await (await resumed.send('second')).wait();
    expect(scripted.calls[1]!.prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const runs = await Agent.listRuns(agent.agentId);
    expect(runs.items).toHaveLength(2);
    const stored = await Agent.getRun(runs.items[1]!.id);
    const types: string[] = [];
    for await (const message of stored.stream()) types.push(message.type);
    expect(types).toContain('assistant');
  });

  it('refuses an unknown mode and an unknown provider with a clear error', async () => {
    const { Agent } = setup([{ text: 'x' }]);
    const cwd = await tempWorkspace();
    await expect(Agent.create({ model, mode: 'nonsense', local: { cwd } })).rejects.toThrow(/Unknown mode "nonsense"/);
    await expect(Agent.create({ model: 'nowhere/model', local: { cwd } })).rejects.toThrow(/Unknown model provider "nowhere"/);
    await expect(Agent.create({ model: 'justamodel', local: { cwd } })).rejects.toThrow(/provider\/model/);
  });
});
