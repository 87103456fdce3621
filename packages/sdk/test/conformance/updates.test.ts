// Ports the reference SDK's "Streaming raw deltas", "Stream events", "Interaction updates" and "Conversation types" sections.
import { describe, expect, it } from 'vitest';
import {
  Agent, type ConversationStep, createMemoryStore, type CustomTool, type InteractionUpdate, type Run, type SDKMessage, type SDKToolUseMessage,
} from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { collect, fakeServers, providerOptions, streamsReasoning } from './fake-provider-agent.js';
import { oneCasePerWire } from './wire-inspection.js';

const startServer = fakeServers();

const toolRound = [
  { reasoning: 'Look at the utils first.', text: 'Reading the notes.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { text: 'Refactored: the launch code 4217 now lives in one place.' },
];

async function agentFor(provider: ProviderCase, turns: Parameters<typeof startServer>[1], customTools?: Record<string, CustomTool>) {
  const server = await startServer(provider, turns);
  const agent = await Agent.create({
    ...providerOptions(provider, server),
    local: { cwd: await makeWorkspace(), store: createMemoryStore(), ...(customTools ? { customTools } : {}) },
  });
  return { agent, server };
}

const ofType = <T extends InteractionUpdate['type']>(updates: InteractionUpdate[], type: T) => updates.filter((update): update is Extract<InteractionUpdate, { type: T }> => update.type === type);
const toolCallMessages = (messages: SDKMessage[]) => messages.filter((message): message is SDKToolUseMessage => message.type === 'tool_call');

describe.each(oneCasePerWire(providerCases))('onDelta and onStep through $name', (provider) => {
  it('the documented example: text and thinking deltas add up to the streamed text, onStep names each step', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const written: string[] = [];
    const logged: string[] = [];
    // "Streaming raw deltas", ported: stdout and the console are arrays here.
    const run = await agent.send('Refactor the utils module', {
      onDelta: ({ update }) => {
        if (update.type === 'text-delta') written.push(update.text);
        if (update.type === 'thinking-delta') written.push(update.text);
      },
      onStep: ({ step }) => {
        logged.push(`[step] ${step.type}`);
      },
    });
    await run.wait();
    expect(written.join('')).toBe(`${streamsReasoning(provider) ? 'Look at the utils first.' : ''}Reading the notes.Refactored: the launch code 4217 now lives in one place.`);
    // Text streams in pieces, not as one update per message.
    expect(written.length).toBeGreaterThan(3);
    expect(logged).toEqual([...(streamsReasoning(provider) ? ['[step] thinkingMessage'] : []), '[step] assistantMessage', '[step] toolCall', '[step] assistantMessage']);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('receives the documented InteractionUpdate shapes, in order', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('Refactor the utils module', { onDelta: ({ update }) => void updates.push(update) });
    await run.wait();

    expect(ofType(updates, 'user-message-appended')).toEqual([{ type: 'user-message-appended', userMessage: { text: 'Refactor the utils module' } }]);
    expect(updates[0]?.type).toBe('user-message-appended');
    for (const update of ofType(updates, 'text-delta')) expect(update).toEqual({ type: 'text-delta', text: expect.any(String) });

    if (streamsReasoning(provider)) {
      expect(ofType(updates, 'thinking-delta').map((update) => update.text).join('')).toBe('Look at the utils first.');
      const [completed, ...more] = ofType(updates, 'thinking-completed');
      expect(more).toEqual([]);
      expect(completed).toEqual({ type: 'thinking-completed', thinkingDurationMs: expect.any(Number) });
      expect(updates.indexOf(completed!)).toBeGreaterThan(updates.findLastIndex((update) => update.type === 'thinking-delta'));
    }

    const [started, ...moreStarted] = ofType(updates, 'tool-call-started');
    expect(moreStarted).toEqual([]);
    expect(started).toMatchObject({ callId: expect.stringMatching(/\S/), modelCallId: started!.callId, toolCall: { type: 'read', name: 'read_file', args: { path: 'notes.txt' } } });
    const partials = ofType(updates, 'partial-tool-call');
    expect(partials.length).toBeGreaterThan(0);
    for (const partial of partials) expect(partial).toMatchObject({ callId: started!.callId, modelCallId: started!.callId, toolCall: { type: 'read', name: 'read_file' } });
    // Partial calls come before the call commits; the arguments accumulate.
    expect(updates.indexOf(partials.at(-1)!)).toBeLessThan(updates.indexOf(started!));
    expect(JSON.parse(partials.at(-1)!.toolCall.argsText ?? '')).toEqual({ path: 'notes.txt' });
    const [completedCall] = ofType(updates, 'tool-call-completed');
    expect(completedCall).toMatchObject({ callId: started!.callId, modelCallId: started!.callId, toolCall: { type: 'read', name: 'read_file', status: 'completed' } });
    expect(completedCall!.toolCall.result).toContain('the launch code is 4217');

    expect(ofType(updates, 'step-started')).toEqual([
      { type: 'step-started', stepId: 1, mode: 'agent' },
      { type: 'step-started', stepId: 2, mode: 'agent' },
    ]);
    const completedSteps = ofType(updates, 'step-completed');
    expect(completedSteps.map((step) => step.stepId)).toEqual([1, 2]);
    for (const step of completedSteps) expect(step.stepDurationMs).toEqual(expect.any(Number));
    const turnsEnded = ofType(updates, 'turn-ended');
    expect(turnsEnded).toHaveLength(2);
    for (const ended of turnsEnded) {
      expect(ended.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), cacheReadTokens: expect.any(Number), cacheWriteTokens: expect.any(Number) });
    }
    // A step's updates come between its start and its completion.
    expect(updates.indexOf(completedCall!)).toBeLessThan(updates.indexOf(completedSteps[0]!));
    expect(updates.indexOf(completedSteps[0]!)).toBeLessThan(updates.indexOf(ofType(updates, 'step-started')[1]!));
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('onStep receives ConversationStep values: assistantMessage, toolCall and thinkingMessage with their message', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const steps: ConversationStep[] = [];
    const run = await agent.send('Refactor the utils module', { onStep: ({ step }) => void steps.push(step) });
    await run.wait();
    const expected: ConversationStep[] = [
      ...(streamsReasoning(provider) ? [{ type: 'thinkingMessage' as const, message: { text: 'Look at the utils first.', thinkingDurationMs: expect.any(Number) } }] : []),
      { type: 'assistantMessage', message: { text: 'Reading the notes.' } },
      { type: 'toolCall', message: expect.objectContaining({ type: 'read', name: 'read_file', args: { path: 'notes.txt' }, status: 'completed' }) },
      { type: 'assistantMessage', message: { text: 'Refactored: the launch code 4217 now lives in one place.' } },
    ];
    expect(steps).toEqual(expected);
    // The same steps as run.conversation() rebuilds from the stored run.
    const [turn] = await run.conversation();
    expect(turn?.type === 'agentConversationTurn' && turn.turn.steps).toEqual(steps);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('awaits the callbacks: a slow onDelta holds back the next update (backpressure)', async () => {
    const { agent, server } = await agentFor(provider, [{ text: 'One piece after another, each waiting for the reader.' }]);
    const arrivals: Array<{ type: string; at: number }> = [];
    let active = 0;
    let overlapped = false;
    const run = await agent.send('Go slowly', {
      onDelta: async ({ update }) => {
        active++;
        if (active > 1) overlapped = true;
        arrivals.push({ type: update.type, at: Date.now() });
        if (update.type === 'text-delta' && arrivals.filter((arrival) => arrival.type === 'text-delta').length === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        active--;
      },
    });
    await run.wait();
    const firstText = arrivals.findIndex((arrival) => arrival.type === 'text-delta');
    expect(arrivals[firstText + 1]!.at - arrivals[firstText]!.at).toBeGreaterThanOrEqual(290);
    expect(overlapped).toBe(false);
    expect(server.problems).toEqual([]);
    await agent.close();
  });
});

describe.each(oneCasePerWire(providerCases))('stream events through $name', (provider) => {
  it('system init with model { id, params? } and tool names; user content blocks; upper-case status values', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const run = await agent.send('Refactor the utils module');
    const messages = await collect(run.stream());
    await run.wait();

    const [system] = messages;
    expect(system).toMatchObject({ type: 'system', subtype: 'init', model: { id: expect.stringMatching(/\S/) } });
    if (system?.type !== 'system') return;
    expect(Object.keys(system.model!).sort()).toEqual(provider.model.params ? ['id', 'params'] : ['id']);
    expect(system.model!.params).toEqual(provider.model.params);
    expect(system.tools).toEqual(expect.arrayContaining(['read_file', 'list_dir', 'grep']));
    expect(messages.filter((message) => message.type === 'user')).toEqual([
      { type: 'user', agent_id: agent.agentId, run_id: run.id, message: { role: 'user', content: [{ type: 'text', text: 'Refactor the utils module' }] } },
    ]);
    const assistant = messages.find((message) => message.type === 'assistant');
    expect(assistant?.type === 'assistant' && assistant.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the notes.' },
        { type: 'tool_use', id: expect.stringMatching(/\S/), name: 'read_file', input: { path: 'notes.txt' } },
      ],
    });
    const statuses = messages.flatMap((message) => (message.type === 'status' ? [message.status] : []));
    expect(statuses[0]).toBe('RUNNING');
    expect(statuses.at(-1)).toBe('FINISHED');
    expect(new Set(statuses)).toEqual(new Set(['RUNNING', 'FINISHED']));
    if (streamsReasoning(provider)) {
      expect(messages.find((message) => message.type === 'thinking')).toMatchObject({ text: 'Look at the utils first.', thinking_duration_ms: expect.any(Number) });
    }
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('tool_call is emitted twice: running with args, then completed or error with result', async () => {
    const { agent, server } = await agentFor(provider, [
      { reasoning: 'Read both.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }, { name: 'read_file', args: { path: 'missing.txt' } }] },
      { text: 'One file was there.' },
    ]);
    const run = await agent.send('Read both files');
    const calls = toolCallMessages(await collect(run.stream()));
    await run.wait();
    expect(calls).toHaveLength(4);
    for (const callId of new Set(calls.map((call) => call.call_id))) {
      const [running, ended, ...rest] = calls.filter((call) => call.call_id === callId);
      expect(rest).toEqual([]);
      expect(running).toMatchObject({ type: 'tool_call', name: 'read_file', status: 'running', args: { path: expect.any(String) } });
      expect(running!.result).toBeUndefined();
      expect(ended).toMatchObject({ type: 'tool_call', name: 'read_file', args: running!.args, result: expect.any(String) });
    }
    const ended = calls.filter((call) => call.status !== 'running');
    expect(ended.find((call) => (call.args as { path: string }).path === 'notes.txt')).toMatchObject({ status: 'completed', result: expect.stringContaining('the launch code is 4217') });
    expect(ended.find((call) => (call.args as { path: string }).path === 'missing.txt')).toMatchObject({ status: 'error' });
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('truncated is { result: true } on a result cut for being over 200,000 characters', async () => {
    const huge = `${'x'.repeat(150_000)}${'y'.repeat(150_000)}`;
    const { agent, server } = await agentFor(provider, [{ reasoning: 'Fetch the logs.', toolCalls: [{ name: 'dump_log', args: {} }, { name: 'short_log', args: {} }] }, { text: 'Too long to read in full.' }], {
      dump_log: { description: 'The whole log.', execute: () => huge },
      short_log: { description: 'The last line of the log.', execute: () => 'ok' },
    });
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('Show me the log', { onDelta: ({ update }) => void updates.push(update) });
    const calls = toolCallMessages(await collect(run.stream()));
    await run.wait();
    const dump = calls.find((call) => call.name === 'dump_log' && call.status !== 'running');
    expect(dump?.truncated).toEqual({ result: true });
    expect(String(dump?.result).length).toBeLessThan(huge.length);
    expect(calls.find((call) => call.name === 'short_log' && call.status !== 'running')?.truncated).toBeUndefined();
    expect(ofType(updates, 'tool-call-completed').find((update) => update.toolCall.name === 'dump_log')?.toolCall.truncated).toEqual({ result: true });
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('ERROR and CANCELLED end failed and cancelled runs', async () => {
    const failing = await startServer(provider, [{ text: 'never' }], [{ status: 400 }]);
    const broken = await Agent.create({ ...providerOptions(provider, failing), local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
    const failed = await broken.send('hello');
    const failedMessages = await collect(failed.stream());
    expect(failedMessages.at(-1)).toMatchObject({ type: 'status', status: 'ERROR', message: expect.stringMatching(/\S/) });

    const { agent } = await agentFor(provider, [{ text: 'A long answer that will not be finished, however long it runs on.' }]);
    let resolveRun!: (run: Run) => void;
    const runReady = new Promise<Run>((resolve) => (resolveRun = resolve));
    let cancelling: Promise<void> | undefined;
    const run = await agent.send('Go', {
      onDelta: async ({ update }) => {
        if (update.type === 'text-delta' && !cancelling) cancelling = (await runReady).cancel();
      },
    });
    resolveRun(run);
    const messages = await collect(run.stream());
    await cancelling;
    const statuses = messages.flatMap((message) => (message.type === 'status' ? [message.status] : []));
    expect(statuses).toEqual(['RUNNING', 'CANCELLED']);
    await Promise.all([broken.close(), agent.close()]);
  });
});
