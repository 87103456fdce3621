import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryStore, defineTool, type RunEvent } from '../src/index.js';
import { resolveLeaseTtlMs } from '../src/runtime/agent-runtime.js';
import { ConversationCheckpointer, loadConversation } from '../src/runtime/conversation-checkpoint.js';
import { repairConversation } from '../src/runtime/conversation-repair.js';
import { newOwnerId, ownerIsGone } from '../src/runtime/recovery.js';
import { tailRunEvents } from '../src/runtime/run-event-log.js';
import type { ModelMessage } from '../src/spec/language-model/v1/index.js';
import { echoTool, setup, tempWorkspace } from './helpers.js';

const model = 'scripted/scripted-model';

describe('checkpoints during a run', () => {
  it('the agent row follows each checkpoint, so the calls of a running tool are in the stored conversation', async () => {
    let seenDuringTool: string[] = [];
    let agentIdForTool = '';
    const observe = defineTool({
      id: 'observe',
      name: 'observe',
      description: 'Look at the stored conversation.',
      inputSchema: z.object({}),
      readOnly: true,
      category: 'custom',
      async execute() {
        seenDuringTool = (await Agent.messages.listModelMessages(agentIdForTool)).map((message) => message.role);
        return 'observed';
      },
    });
    const { Agent } = setup([{ toolCalls: [{ name: 'observe', args: {} }] }, { text: 'done' }], [observe]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    agentIdForTool = agent.agentId;
    await (await agent.send('look')).wait();
    // The user message and the assistant's call (answered, when listed, by an interrupted placeholder).
    expect(seenDuringTool).toEqual(['user', 'assistant', 'tool']);
    expect((await Agent.messages.listModelMessages(agent.agentId)).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a structurally equal copy of the saved messages extends the chain instead of starting a new one', async () => {
    const store = createMemoryStore();
    const first: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];
    const checkpointer = new ConversationCheckpointer(store.checkpoints, { root: null, messages: [] });
    const rootOne = await checkpointer.save(first, {}, 'agent');
    const copy = JSON.parse(JSON.stringify(first)) as ModelMessage[];
    const rootTwo = await checkpointer.save([...copy, { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }], {}, 'agent');
    const node = JSON.parse(new TextDecoder().decode(await store.checkpoints.getBlob(rootTwo)));
    expect(node).toMatchObject({ parent: rootOne, length: 2 });
    expect(node.append).toHaveLength(1);
    // Saving the same conversation again writes nothing new.
    expect(await checkpointer.save([...copy, { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }], {}, 'agent')).toBe(rootTwo);
    expect((await loadConversation(store.checkpoints, rootTwo)).messages).toHaveLength(2);
  });

  it('loads from a root cached in this process (or its cached ancestor) exactly what a cold load gives', async () => {
    const store = createMemoryStore();
    const text = (value: string): ModelMessage => ({ role: 'user', content: [{ type: 'text', text: value }] });
    const checkpointer = new ConversationCheckpointer(store.checkpoints, { root: null, messages: [] });
    const rootOne = await checkpointer.save([text('one')], { todos: [1] }, 'agent');
    const rootTwo = await checkpointer.save([text('one'), text('two')], { todos: [1, 2] }, 'plan');
    // Another writer (a cold checkpointer) extends the chain: loading it walks back to rootTwo.
    const cold = { putBlob: store.checkpoints.putBlob.bind(store.checkpoints), getBlob: store.checkpoints.getBlob.bind(store.checkpoints), hasBlob: store.checkpoints.hasBlob.bind(store.checkpoints) };
    const other = new ConversationCheckpointer(cold, { root: rootTwo, messages: (await loadConversation(cold, rootTwo)).messages });
    const rootThree = await other.save([...(await loadConversation(cold, rootTwo)).messages, text('three')], {}, 'agent');
    for (const root of [rootOne, rootTwo, rootThree]) {
      const warm = await loadConversation(store.checkpoints, root);
      expect(warm).toEqual(await loadConversation({ ...cold }, root));
      // Mutating what a load returned does not change the next load.
      warm.messages.push(text('stray'));
      (warm.state as { todos?: number[] }).todos?.push(99);
      expect(await loadConversation(store.checkpoints, root)).toEqual(await loadConversation({ ...cold }, root));
    }
    expect((await loadConversation(store.checkpoints, rootTwo)).mode).toBe('plan');
  });

  it('repair answers every unanswered call of an interrupted turn, also next to results that arrived', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'echo', input: {} }, { type: 'tool-call', toolCallId: 'b', toolName: 'echo', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'echo', output: { type: 'text', value: 'ok' } }] },
    ];
    const { messages: repaired, repaired: count } = repairConversation(messages);
    expect(count).toBe(1);
    expect(repaired[2]).toMatchObject({ role: 'tool', content: [{ toolCallId: 'a' }, { toolCallId: 'b', output: { type: 'error-text' } }] });
  });
});

describe('one run per agent in one process', () => {
  it('sends made at the same moment on one agent queue and share one lease, released at the end', async () => {
    const { Agent } = setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const runs = await Promise.all([agent.send('a'), agent.send('b'), agent.send('c')]);
    const results = await Promise.all(runs.map((run) => run.wait()));
    expect(results.map((result) => result.result)).toEqual(['one', 'two', 'three']);
    await agent.close();
    expect((await Agent.get(agent.agentId)).lease).toBeNull();
  });

  it('a second CairnAgent of the same agent queues behind the first instead of interleaving turns (no agent_busy)', async () => {
    const { Agent } = setup([{ text: 'slow words for a while', delayMs: 60 }, { text: 'later' }]);
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace() } });
    const twin = await Agent.resume(agent.agentId);
    const run = await agent.send('first');
    const queued = await twin.send('queued behind');
    expect(queued.status).toBe('running');
    const first = await run.wait();
    const second = await queued.wait();
    expect([first.result, second.result]).toEqual(['slow words for a while', 'later']);
    // The second turn saw the first: it ran on the conversation the first one left.
    const messages = await Agent.messages.listModelMessages(agent.agentId);
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(2);
    expect((await Agent.get(agent.agentId)).lease ?? null).toBeNull();
  });

  it('a run that throws (its checkpoint is missing) ends as error in the store too, and its stream ends', async () => {
    const { Agent } = setup([{ text: 'never' }], [echoTool()]);
    const store = createMemoryStore();
    const agent = await Agent.create({ model, local: { cwd: await tempWorkspace(), store } });
    await store.agents.update(agent.agentId, { checkpointRoot: 'f'.repeat(64) });
    const run = await agent.send('hello');
    const result = await run.wait();
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/missing from the store/);
    expect((await store.runs.get(run.id))?.status).toBe('error');
    const types: string[] = [];
    for await (const message of (await Agent.getRun(run.id, { store })).stream()) types.push(message.type);
    expect(types.at(-1)).toBe('status');
    expect((await store.agents.get(agent.agentId))?.lease).toBeNull();
  });
});

describe('leases and logs', () => {
  it('owner ids tell a dead local process from a live or foreign one', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(child.stdout);
    const uuid = globalThis.crypto.randomUUID();
    expect(ownerIsGone(`process-${uuid}:${deadPid}@${hostname()}`)).toBe(true);
    expect(ownerIsGone(`process-${uuid}:${deadPid}@another-${hostname()}`)).toBe(false);
    expect(ownerIsGone(newOwnerId())).toBe(false);
    expect(ownerIsGone(`process-${uuid}:${process.ppid}@${hostname()}`)).toBe(false);
    expect(ownerIsGone('host:1234')).toBe(false);
  });

  it('the lease TTL comes from the option, else CAIRN_LEASE_TTL_MS, else 30 s', () => {
    expect(resolveLeaseTtlMs(undefined, {})).toBe(30_000);
    expect(resolveLeaseTtlMs(500, { CAIRN_LEASE_TTL_MS: '900' })).toBe(500);
    expect(resolveLeaseTtlMs(undefined, { CAIRN_LEASE_TTL_MS: '900' })).toBe(900);
    expect(resolveLeaseTtlMs(undefined, { CAIRN_LEASE_TTL_MS: 'soon' })).toBe(30_000);
    expect(resolveLeaseTtlMs(-1, {})).toBe(30_000);
  });

  it('a tail ends after the final status event even when the record still says running', async () => {
    const store = createMemoryStore();
    const events: RunEvent[] = [
      { kind: 'update', update: { type: 'text-delta', text: 'hi' } },
      { kind: 'message', message: { type: 'status', status: 'FINISHED', agent_id: 'agent-1', run_id: 'run-1' } },
    ];
    await store.runEvents.append('run-1', events);
    const seen: RunEvent[] = [];
    let waits = 0;
    for await (const stored of tailRunEvents(store.runEvents, 'run-1', { isDone: () => false, waitForMore: async () => void waits++ })) seen.push(stored.event);
    expect(seen).toEqual(events);
    expect(waits).toBe(0);
  });
});
