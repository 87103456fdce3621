// Ports the reference SDK's "Run", "Waiting without streaming", "Cancelling a run", "Reading run state", "Token usage",
// "Run correlation with requestId", "Per-run model override" and "Conversation mode" sections.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import {
  Agent, createCairn, createJsonlStore, createMemoryStore, createSqliteStore, type InteractionUpdate, type LocalAgentStore, type Run, type RunStatus,
  type SDKMessage, type TokenUsage,
} from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { collect, effortParameterOf, fakeServers, providerOptions, streamsReasoning, uuidPattern } from './fake-provider-agent.js';
import { oneCasePerWire, wireOf } from './wire-inspection.js';

const startServer = fakeServers();

/** A run of two turns: a tool round, then the answer. */
const toolRound = [
  { reasoning: 'Read the notes first.', text: 'Let me read the notes.', toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { text: 'The launch code is 4217.' },
];

const usageOf = (messages: SDKMessage[]): TokenUsage[] => messages.flatMap((message) => (message.type === 'usage' ? [message.usage] : []));

function sum(usages: TokenUsage[]): TokenUsage {
  const total = (field: 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'totalTokens') => usages.reduce((acc, usage) => acc + usage[field], 0);
  const withReasoning = usages.filter((usage) => usage.reasoningTokens !== undefined);
  return {
    inputTokens: total('inputTokens'),
    outputTokens: total('outputTokens'),
    cacheReadTokens: total('cacheReadTokens'),
    cacheWriteTokens: total('cacheWriteTokens'),
    totalTokens: total('totalTokens'),
    ...(withReasoning.length ? { reasoningTokens: withReasoning.reduce((acc, usage) => acc + (usage.reasoningTokens ?? 0), 0) } : {}),
  };
}

/** The model id a case's id resolves to: the catalog's dated id for Anthropic, the id itself elsewhere. */
const resolvesTo = (provider: ProviderCase) => expect.stringMatching(new RegExp(`^${provider.model.id.replace(/[.]/g, '\\.')}`));

async function agentFor(provider: ProviderCase, turns: Parameters<typeof startServer>[1], extra: { mode?: string } = {}) {
  const server = await startServer(provider, turns);
  const agent = await Agent.create({ ...providerOptions(provider, server), ...extra, local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
  return { agent, server };
}

describe.each(oneCasePerWire(providerCases))('the Run interface through $name', (provider) => {
  it('exposes id, requestId, agentId, status, result, model, durationMs, usage and createdAt; wait() resolves the RunResult', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const before = Date.now();
    const statuses: RunStatus[] = [];
    const run = await agent.send('What is the launch code?');
    const stop = run.onDidChangeStatus((status) => statuses.push(status));
    expect(run.status).toBe('running');
    expect(run.id).toMatch(/^run-/);
    expect(run.agentId).toBe(agent.agentId);
    expect(run.requestId).toMatch(uuidPattern);
    expect(run.createdAt).toBeGreaterThanOrEqual(before);
    expect(run.createdAt).toBeLessThanOrEqual(Date.now());
    expect(run.result).toBeUndefined();
    expect(run.supports('cancel')).toBe(true);
    expect(run.unsupportedReason('cancel')).toBeUndefined();

    const messages = await collect(run.stream());
    const result = await run.wait();
    stop();
    expect(statuses).toEqual(['finished']);
    expect(result).toEqual({
      id: run.id,
      requestId: run.requestId,
      agentId: agent.agentId,
      status: 'finished',
      result: 'The launch code is 4217.',
      model: { id: resolvesTo(provider), ...(provider.model.params ? { params: provider.model.params } : {}) },
      durationMs: expect.any(Number),
      usage: expect.any(Object),
    });
    expect(result.error).toBeUndefined();
    // The Run object holds the same data once the run ended.
    expect(run).toMatchObject({ status: 'finished', result: result.result, requestId: result.requestId, model: result.model, durationMs: result.durationMs, usage: result.usage });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    // run.model is the selection as the system init message announced it.
    expect(messages.find((message) => message.type === 'system')).toMatchObject({ model: result.model });

    // "usage" fires once at the end of each turn that reported usage; run/result usage is the cumulative sum.
    const perTurn = usageOf(messages);
    expect(perTurn).toHaveLength(2);
    for (const usage of perTurn) {
      expect(usage.totalTokens).toBeGreaterThan(0);
      expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
    }
    expect(result.usage).toEqual(sum(perTurn));
    expect(await run.wait()).toEqual(result);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('run.usage is the running total while the run is in flight', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const seen: Array<TokenUsage | undefined> = [];
    let resolveRun!: (run: Run) => void;
    const runReady = new Promise<Run>((resolve) => (resolveRun = resolve));
    const run = await agent.send('What is the launch code?', {
      onDelta: async ({ update }) => {
        if (update.type === 'step-started') seen.push((await runReady).usage);
      },
    });
    resolveRun(run);
    const messages = await collect(run.stream());
    await run.wait();
    const [first] = usageOf(messages);
    // Before the first turn nothing was reported; before the second, the first turn's usage.
    expect(seen).toEqual([undefined, first]);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('cancel(): the status moves to cancelled, wait() resolves cancelled, the partial text stays on the Run, and cancel after the end is a no-op', async () => {
    const answer = 'Counting slowly: one, two, three, four, five, six, seven, eight, nine, ten.';
    const { agent, server } = await agentFor(provider, [{ text: answer }, { text: 'Still here.' }]);
    let resolveRun!: (run: Run) => void;
    const runReady = new Promise<Run>((resolve) => (resolveRun = resolve));
    let cancelling: Promise<void> | undefined;
    const statuses: RunStatus[] = [];
    const run = await agent.send('Count to ten', {
      // Cancel while the first piece of text is being delivered: the rest of the answer never arrives.
      onDelta: async ({ update }) => {
        if (update.type === 'text-delta' && !cancelling) cancelling = (await runReady).cancel();
      },
    });
    run.onDidChangeStatus((status) => statuses.push(status));
    resolveRun(run);
    const messages = await collect(run.stream());
    const result = await run.wait();
    await cancelling;

    expect(run.status).toBe('cancelled');
    expect(statuses).toEqual(['cancelled']);
    expect(result.status).toBe('cancelled');
    expect(result.error).toEqual({ message: expect.any(String), code: 'cancelled' });
    expect(run.result).toBeTruthy();
    expect(answer.startsWith(run.result!)).toBe(true);
    expect(run.result!.length).toBeLessThan(answer.length);
    expect(result.result).toBe(run.result);
    expect(messages.at(-1)).toMatchObject({ type: 'status', status: 'CANCELLED' });
    // No turn finished, so no turn reported usage.
    expect(result.usage).toBeUndefined();
    expect(run.usage).toBeUndefined();
    expect(usageOf(messages)).toEqual([]);

    // Cancelling an ended run changes nothing.
    await run.cancel();
    expect(run.status).toBe('cancelled');
    const finished = await agent.send('Are you there?');
    expect((await finished.wait()).status).toBe('finished');
    await finished.cancel();
    expect(finished.status).toBe('finished');
    expect(finished.supports('cancel')).toBe(false);
    expect(finished.unsupportedReason('cancel')).toMatch(/already ended/);
    expect(finished.supports('stream') && finished.supports('wait') && finished.supports('conversation')).toBe(true);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('conversation(): agentConversationTurn with the user message and typed steps; the documented lastAssistant extraction', async () => {
    const { agent, server } = await agentFor(provider, toolRound);
    const run = await agent.send('What is the launch code?');
    const result = await run.wait();

    // "Waiting without streaming", ported.
    const finalText = result.result ?? '';
    const turns = await run.conversation();
    const lastAssistant = turns
      .flatMap((t) => (t.type === 'agentConversationTurn' ? t.turn.steps : []))
      .filter((s) => s.type === 'assistantMessage')
      .at(-1);
    expect(lastAssistant?.message.text).toBe(finalText);
    expect(finalText).toBe('The launch code is 4217.');

    expect(turns).toHaveLength(1);
    const [turn] = turns;
    expect(turn?.type).toBe('agentConversationTurn');
    if (turn?.type !== 'agentConversationTurn') return;
    expect(turn.turn.userMessage).toEqual({ text: 'What is the launch code?' });
    expect(turn.turn.steps.map((step) => step.type)).toEqual([
      ...(streamsReasoning(provider) ? ['thinkingMessage'] : []),
      'assistantMessage',
      'toolCall',
      'assistantMessage',
    ]);
    const thinking = turn.turn.steps.find((step) => step.type === 'thinkingMessage');
    if (streamsReasoning(provider)) expect(thinking?.message).toMatchObject({ text: 'Read the notes first.' });
    const call = turn.turn.steps.find((step) => step.type === 'toolCall');
    expect(call?.message).toMatchObject({ type: 'read', name: 'read_file', args: { path: 'notes.txt' }, status: 'completed' });
    expect(call?.type === 'toolCall' && call.message.result).toContain('the launch code is 4217');
    expect(turn.turn.steps[0]!.type === 'thinkingMessage' || turn.turn.steps[0]!.type === 'assistantMessage').toBe(true);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('a failed run: status error, error { message, code }, onDidChangeStatus sees error', async () => {
    const server = await startServer(provider, [{ text: 'never' }], [{ status: 400 }]);
    const agent = await Agent.create({ ...providerOptions(provider, server), local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
    const run = await agent.send('hello');
    const statuses: RunStatus[] = [];
    run.onDidChangeStatus((status) => statuses.push(status));
    const result = await run.wait();
    expect(result.status).toBe('error');
    expect(result.error).toEqual({ message: expect.stringMatching(/\S/), code: expect.stringMatching(/\S/) });
    expect(run.status).toBe('error');
    expect(run.error).toEqual(result.error);
    expect(statuses).toEqual(['error']);
    await agent.close();
  });

  it('Per-run model override: run.model and result.model reflect it with its params; it becomes sticky and agent.model shows it', async () => {
    const { agent, server } = await agentFor(provider, [{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    expect(agent.model).toEqual(provider.model);
    const first = await agent.send('Start');
    await first.wait();
    const override = { id: provider.model.id, params: [{ id: effortParameterOf(provider), value: 'high' }] };

    const run = await agent.send('Plan the refactor', { model: override });
    expect(agent.model).toEqual(override);
    expect(run.model).toEqual({ id: resolvesTo(provider), params: override.params });
    expect((await run.wait()).model).toEqual(run.model);
    // Sticky: the next send without an override keeps the new selection.
    const next = await agent.send('Carry on');
    expect((await next.wait()).model).toEqual(run.model);
    // Fixed once a run started: the first run still reports the selection it used.
    expect(first.model).toEqual({ id: resolvesTo(provider), ...(provider.model.params ? { params: provider.model.params } : {}) });
    if (provider.name === 'OpenAI Chat Completions') {
      expect(server.requests.map((body) => body.reasoning_effort)).toEqual(['low', 'high', 'high']);
    }
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('Conversation mode: mode "plan" on create seeds the first run; send(..., { mode: "agent" }) switches that run only', async () => {
    const { agent, server } = await agentFor(provider, [{ text: 'Here is the design.' }, { text: 'Building it.' }, { text: 'Back to planning.' }], { mode: 'plan' });
    const offered = (index: number) => wireOf(provider).tools(server.requests[index]!).map((tool) => tool.name);

    const planned = await agent.send('Design the auth refactor');
    const planMessages = await collect(planned.stream());
    await planned.wait();
    const building = await agent.send('Looks good, start building', { mode: 'agent' });
    const buildMessages = await collect(building.stream());
    await building.wait();
    const after = await agent.send('What next?');
    const afterMessages = await collect(after.stream());
    await after.wait();

    expect(planMessages.find((message) => message.type === 'system')).toMatchObject({ mode: 'plan' });
    expect(offered(0)).toContain('create_plan');
    expect(offered(0)).not.toContain('edit_file');
    expect(buildMessages.find((message) => message.type === 'system')).toMatchObject({ mode: 'agent' });
    expect(offered(1)).toContain('edit_file');
    expect(offered(1)).not.toContain('create_plan');
    // "Omit mode to keep the conversation's current mode": the switch was for that run only.
    expect(afterMessages.find((message) => message.type === 'system')).toMatchObject({ mode: 'plan' });
    expect(offered(2)).toContain('create_plan');
    expect(server.problems).toEqual([]);
    await agent.close();
  });
});

describe('Run correlation with requestId', () => {
  const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;
  /** Opens a store object on the same data each time, as a restarted process would; `close` closes it. */
  interface StoreKind {
    open(): LocalAgentStore;
    close(store: LocalAgentStore): void | Promise<void>;
  }
  const memory = (): StoreKind => {
    const store = createMemoryStore();
    return { open: () => store, close: () => undefined };
  };
  const sqlite = (): StoreKind => {
    const path = join(tmpdir(), `cairn-conformance-run-${crypto.randomUUID()}.db`);
    return { open: () => createSqliteStore({ path }), close: (store) => (store as ReturnType<typeof createSqliteStore>).close() };
  };
  const jsonl = (): StoreKind => {
    const dir = join(tmpdir(), `cairn-conformance-run-${crypto.randomUUID()}`);
    return { open: () => createJsonlStore({ dir }), close: (store) => (store as ReturnType<typeof createJsonlStore>).close() };
  };

  it.each([
    ['in-memory', memory],
    ['SQLite', sqlite],
    ['JSONL', jsonl],
  ])('a UUID on the Run and the RunResult that round-trips through the %s store', async (_name, kind) => {
    const server = await startServer(chat, [{ text: 'Audited.' }]);
    const stores = kind();
    const store = stores.open();
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-conformance-'));
    const agent = await Agent.create({ ...providerOptions(chat, server), local: { cwd, store } });
    const run = await agent.send('Audit the auth middleware');
    expect(run.requestId).toMatch(uuidPattern);
    const result = await run.wait();
    expect(result.requestId).toBe(run.requestId);
    await agent.close();
    await stores.close(store);

    const reopened = stores.open();
    try {
      const again = await Agent.getRun(run.id, { runtime: 'local', store: reopened });
      expect(again.requestId).toBe(run.requestId);
      expect((await again.wait()).requestId).toBe(run.requestId);
      const listed = await Agent.listRuns(agent.agentId, { runtime: 'local', store: reopened });
      expect(listed.items.map((item) => item.requestId)).toEqual([run.requestId]);
      // Every send gets its own.
      const resumed = await Agent.resume(agent.agentId, { ...providerOptions(chat, server), local: { cwd, store: reopened } });
      const second = await resumed.send('Again');
      expect(second.requestId).toMatch(uuidPattern);
      expect(second.requestId).not.toBe(run.requestId);
      expect((await second.wait()).requestId).toBe(second.requestId);
      await resumed.close();
    } finally {
      await stores.close(reopened);
    }
  });
});

describe('Token usage when no turn reported any', () => {
  it('a model whose turns report no figures leaves run.usage and result.usage undefined, with no usage message', async () => {
    const silent = { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined };
    const model = scriptedModel([
      {
        parts: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'No counts from me.' },
          { type: 'text-end', id: 't' },
          // What a provider adapter reports for a server that sends no usage at all.
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: silent, outputTokens: { total: undefined, text: undefined, reasoning: undefined } } },
        ],
      },
    ]);
    const { Agent: SilentAgent } = createCairn({ plugins: [{ name: 'silent', providers: [scriptedProvider({ quiet: model }, 'silent')] }] });
    const agent = await SilentAgent.create({ model: 'silent/quiet', local: { cwd: await makeWorkspace(), store: createMemoryStore() } });
    const updates: InteractionUpdate[] = [];
    const run = await agent.send('hello', { onDelta: ({ update }) => void updates.push(update) });
    const messages = await collect(run.stream());
    const result = await run.wait();
    expect(result).toMatchObject({ status: 'finished', result: 'No counts from me.' });
    expect(result.usage).toBeUndefined();
    expect(run.usage).toBeUndefined();
    expect(usageOf(messages)).toEqual([]);
    expect(updates.find((update) => update.type === 'turn-ended')).toEqual({ type: 'turn-ended' });
    await agent.close();
  });
});
