import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, defineTool, type RunEvent, type StoredRunEvent } from '@cairn/core';
import { createCairn, type Run } from '@cairn/core/node';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import {
  AbstractChat, type ChatState, type ChatStatus, DefaultChatTransport, parseJsonEventStream, readUIMessageStream, type UIMessage,
  type UIMessageChunk, uiMessageChunkSchema,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CairnDataTypes, type CairnMessageMetadata, createUiChunkConverter, lastUserText, type UIChunk, uiChunksOfRun, uiChunksToSse,
  uiMessageStreamHeaders,
} from '../src/ui-stream/index.js';

type CairnUIMessage = UIMessage<CairnMessageMetadata, CairnDataTypes>;

// Compiles only while every chunk Cairn sends is a chunk of the AI SDK's own type.
const asAiChunk = (chunk: UIChunk): UIMessageChunk<CairnMessageMetadata, CairnDataTypes> => chunk;

// ---- Real runs: a Cairn agent on a scripted model, and its stored event log ----

const echo = defineTool({ id: 'echo', name: 'echo', description: 'Echo.', inputSchema: z.object({ text: z.string() }), readOnly: true, category: 'custom', execute: (input: { text: string }) => `echo: ${input.text}` });
const fail = defineTool({ id: 'fail', name: 'fail', description: 'Fails.', inputSchema: z.object({}), readOnly: true, category: 'custom', execute: () => { throw new Error('disk on fire'); } });
const deploy = defineTool({ id: 'deploy', name: 'deploy', description: 'Deploys.', inputSchema: z.object({ target: z.string() }), readOnly: false, category: 'custom', execute: (input: { target: string }) => `deployed to ${input.target}` });
const slow = defineTool({
  id: 'slow', name: 'slow', description: 'Takes a while.', inputSchema: z.object({}), readOnly: true, category: 'custom',
  execute: (_input: object, context) => new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => resolve('late'), 5_000);
    const stop = () => {
      clearTimeout(timer);
      reject(context.signal.reason);
    };
    context.signal.addEventListener('abort', stop, { once: true });
  }),
});

interface RunOptions {
  agent?: Record<string, unknown>;
  /** Called on each update as it happens (answer an approval, cancel). */
  onUpdate?: (run: Run, update: Extract<RunEvent, { kind: 'update' }>['update']) => void;
}

async function runAgent(turns: ScriptedTurn[], options: RunOptions = {}): Promise<StoredRunEvent[]> {
  const model = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [{ name: 'ui-stream', providers: [scriptedProvider({ 'scripted-model': model })], tools: [echo, fail, deploy, slow] }] });
  const store = createMemoryStore();
  const cwd = await mkdtemp(join(tmpdir(), 'cairn-ui-stream-'));
  const { local, ...rest } = (options.agent ?? {}) as { local?: object };
  const agent = await Agent.create({ model: 'scripted/scripted-model', local: { cwd, store, settingSources: [], ...local }, ...rest });
  let run: Run | undefined;
  run = await agent.send('go', { onDelta: ({ update }) => (run ? options.onUpdate?.(run, update) : undefined) });
  await run.wait();
  return (await store.runEvents.list(run.id)).events;
}

/** Stored events with offsets 1, 2, 3, ... (for logs built by hand). */
const stored = (events: RunEvent[]): StoredRunEvent[] => events.map((event, index) => ({ offset: index + 1, event }));

function convert(events: StoredRunEvent[]): UIChunk[] {
  const converter = createUiChunkConverter({ messageId: 'msg-1' });
  return events.flatMap((event) => converter.push(event));
}

async function* each<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

// ---- The real client: the AI SDK's parser and message reader, and useChat's engine ----

/** Parse the SSE bytes as the AI SDK's transport does, checking every chunk against its schema. */
async function readAsClient(chunks: UIChunk[]): Promise<{ chunks: UIMessageChunk[]; message: CairnUIMessage }> {
  const parsed = parseJsonEventStream({ stream: uiChunksToSse(each(chunks)), schema: uiMessageChunkSchema });
  const received: UIMessageChunk[] = [];
  const validated = parsed.pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw result.error;
        received.push(result.value);
        controller.enqueue(result.value);
      },
    }),
  );
  let message: CairnUIMessage | undefined;
  for await (const snapshot of readUIMessageStream<CairnUIMessage>({ stream: validated, terminateOnError: true })) message = snapshot;
  if (!message) throw new Error('the stream built no message');
  return { chunks: received, message };
}

class MemoryChatState implements ChatState<CairnUIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined;
  messages: CairnUIMessage[] = [];
  pushMessage = (message: CairnUIMessage) => void (this.messages = [...this.messages, message]);
  popMessage = () => void (this.messages = this.messages.slice(0, -1));
  replaceMessage = (index: number, message: CairnUIMessage) => void (this.messages = this.messages.map((old, at) => (at === index ? message : old)));
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** `useChat` without React: the same engine, posting through `DefaultChatTransport` to a fake server. */
class TestChat extends AbstractChat<CairnUIMessage> {
  constructor(transport: DefaultChatTransport<CairnUIMessage>) {
    super({ id: 'chat-1', transport, state: new MemoryChatState() });
  }
}

/** Send `go` through useChat's engine to a server that answers with these events. */
async function chatWith(events: StoredRunEvent[], send: Parameters<TestChat['sendMessage']>[0] = { text: 'go' }) {
  const bodies: unknown[] = [];
  const fetch = async (_url: unknown, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(uiChunksToSse(uiChunksOfRun(each(events), { messageId: 'msg-1' })), { headers: uiMessageStreamHeaders });
  };
  const chat = new TestChat(new DefaultChatTransport<CairnUIMessage>({ api: 'http://cairn.test/v1/agents/agent-1/chat', fetch: fetch as typeof globalThis.fetch }));
  await chat.sendMessage(send);
  return { chat, body: bodies[0], reply: chat.messages.at(-1) as CairnUIMessage };
}

// ---- What to look at in a message ----

const textOf = (events: StoredRunEvent[]) => events.flatMap(({ event }) => (event.kind === 'update' && event.update.type === 'text-delta' ? [event.update.text] : [])).join('');
const partsOf = (message: CairnUIMessage, type: string) => message.parts.filter((part) => part.type === type);
const dataOf = (message: CairnUIMessage, name: keyof CairnDataTypes) => partsOf(message, `data-${name}`).map((part) => (part as { data: unknown }).data);
const typesOf = (chunks: UIChunk[]) => chunks.map((chunk) => chunk.type);

// AI SDK 5 validates chunks with strict objects: a field it does not know fails the whole stream.
const v5Fields: Record<string, string[]> = {
  start: ['messageId', 'messageMetadata'], finish: ['messageMetadata'], 'message-metadata': ['messageMetadata'], abort: [], error: ['errorText'],
  'start-step': [], 'finish-step': [], 'text-start': ['id'], 'text-delta': ['id', 'delta'], 'text-end': ['id'],
  'reasoning-start': ['id'], 'reasoning-delta': ['id', 'delta'], 'reasoning-end': ['id'],
  'tool-input-start': ['toolCallId', 'toolName', 'dynamic'], 'tool-input-delta': ['toolCallId', 'inputTextDelta'],
  'tool-input-available': ['toolCallId', 'toolName', 'input', 'dynamic'], 'tool-output-available': ['toolCallId', 'output', 'dynamic'],
  'tool-output-error': ['toolCallId', 'errorText', 'dynamic'],
};
function expectAiSdk5Fields(chunks: UIChunk[]) {
  for (const chunk of chunks) {
    const allowed = chunk.type.startsWith('data-') ? ['id', 'data', 'transient'] : v5Fields[chunk.type];
    expect(allowed, `chunk type ${chunk.type}`).toBeDefined();
    for (const key of Object.keys(chunk)) if (key !== 'type') expect(allowed, `${chunk.type}.${key}`).toContain(key);
  }
}

describe('a run as the UI message stream, read by the AI SDK', () => {
  it('text only: one text part equal to the deltas, run facts and usage as data parts, finish with metadata', async () => {
    const events = await runAgent([{ text: 'Hello from Cairn, in several words.' }]);
    const chunks = convert(events);
    expect(typesOf(chunks)).toEqual([
      'start', 'data-cairn-run', 'data-cairn-mode', 'data-cairn-status', 'start-step', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-delta', 'text-delta', 'text-delta',
      'data-cairn-usage', 'text-end', 'finish-step', 'data-cairn-status', 'finish',
    ]);
    expectAiSdk5Fields(chunks);
    const { message } = await readAsClient(chunks);
    const runId = (events[0]?.event as { message: { run_id: string } }).message.run_id;
    expect(message.id).toBe('msg-1');
    expect(partsOf(message, 'text')).toEqual([{ type: 'text', text: 'Hello from Cairn, in several words.', state: 'done' }]);
    expect(textOf(events)).toBe('Hello from Cairn, in several words.');
    expect(dataOf(message, 'cairn-run')).toMatchObject([{ runId, tools: ['echo', 'fail', 'deploy', 'slow'], mode: 'agent' }]);
    expect(dataOf(message, 'cairn-status')).toEqual([{ status: 'finished' }]);
    expect(dataOf(message, 'cairn-usage')).toEqual([{ usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 15 } }]);
    expect(message.metadata).toEqual({ runId, status: 'finished', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 15 } });
  });

  it('thinking, text and a tool call: reasoning part, the call with its input and output, one step-start per model step', async () => {
    const events = await runAgent([{ reasoning: { text: 'Look before answering.' }, text: 'Let me check.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: 'It said hi.' }]);
    const chunks = convert(events);
    const step = chunks.slice(chunks.findIndex((chunk) => chunk.type === 'start-step'), chunks.findIndex((chunk) => chunk.type === 'finish-step') + 1);
    expect(step).toEqual([
      { type: 'start-step' },
      { type: 'reasoning-start', id: expect.stringMatching(/^reasoning-/) },
      { type: 'reasoning-delta', id: expect.any(String), delta: 'Look before answering.' },
      { type: 'reasoning-end', id: expect.any(String) },
      { type: 'text-start', id: expect.stringMatching(/^text-/) },
      { type: 'text-delta', id: expect.any(String), delta: 'Let ' },
      { type: 'text-delta', id: expect.any(String), delta: 'me ' },
      { type: 'text-delta', id: expect.any(String), delta: 'check.' },
      { type: 'text-end', id: expect.any(String) },
      { type: 'tool-input-start', toolCallId: 'call_1_1', toolName: 'echo', dynamic: true },
      { type: 'tool-input-delta', toolCallId: 'call_1_1', inputTextDelta: '{"text":"hi"}' },
      { type: 'tool-input-available', toolCallId: 'call_1_1', toolName: 'echo', input: { text: 'hi' }, dynamic: true },
      { type: 'data-cairn-usage', id: 'usage', data: expect.any(Object) },
      { type: 'tool-output-available', toolCallId: 'call_1_1', output: { result: 'echo: hi' }, dynamic: true },
      { type: 'finish-step' },
    ]);
    const { message } = await readAsClient(chunks);
    expect(partsOf(message, 'step-start')).toHaveLength(2);
    expect(partsOf(message, 'reasoning')).toMatchObject([{ text: 'Look before answering.', state: 'done' }]);
    expect(partsOf(message, 'text').map((part) => (part as { text: string }).text)).toEqual(['Let me check.', 'It said hi.']);
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([{ toolName: 'echo', toolCallId: 'call_1_1', state: 'output-available', input: { text: 'hi' }, output: { result: 'echo: hi' } }]);
    expect(dataOf(message, 'cairn-usage')).toMatchObject([{ usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } }]);
  });

  it("a tool's structuredContent comes with its result", async () => {
    const customTools = { measure: { description: 'Counts files.', execute: () => ({ files: 3 }) } };
    const events = await runAgent([{ toolCalls: [{ name: 'measure', args: {} }] }, { text: 'Three.' }], { agent: { local: { customTools } } });
    const { message } = await readAsClient(convert(events));
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([{ toolName: 'measure', state: 'output-available', output: { result: expect.any(String), structuredContent: { files: 3 } } }]);
  });

  it('a failing tool: the part ends in output-error with the error the model read', async () => {
    const events = await runAgent([{ toolCalls: [{ name: 'fail', args: {} }, { name: 'echo', args: { text: 'still' } }] }, { text: 'One failed.' }]);
    const { message } = await readAsClient(convert(events));
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([
      { toolName: 'fail', state: 'output-error', errorText: 'fail failed: disk on fire' },
      { toolName: 'echo', state: 'output-available', output: { result: 'echo: still' } },
    ]);
  });

  it('an approval requested then granted: one data-cairn-approval part, replaced by its answer; the tool then runs', async () => {
    const events = await runAgent([{ toolCalls: [{ name: 'deploy', args: { target: 'prod' } }] }, { text: 'Deployed.' }], {
      agent: { permissions: { ask: ['deploy'] }, approvals: 'wait' },
      onUpdate: (run, update) => (update.type === 'approval-requested' ? void setTimeout(() => run.approve(update.callId, true), 5) : undefined),
    });
    const chunks = convert(events);
    expect(chunks.filter((chunk) => chunk.type === 'data-cairn-approval').map((chunk) => (chunk as { data: { status: string } }).data.status)).toEqual(['pending', 'approved']);
    const { message } = await readAsClient(chunks);
    expect(dataOf(message, 'cairn-approval')).toEqual([
      { callId: 'call_1_1', status: 'approved', request: { kind: 'tool', reason: expect.any(String), rule: expect.any(String), toolName: 'deploy', args: { target: 'prod' } }, decision: { approved: true, by: 'sdk' } },
    ]);
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([{ toolName: 'deploy', state: 'output-available', output: { result: 'deployed to prod' } }]);
    // The waiting phase was a status, replaced by the final one.
    expect(dataOf(message, 'cairn-status')).toEqual([{ status: 'finished' }]);
  });

  it('a denied approval: the tool part is an output-error, the approval says denied', async () => {
    const events = await runAgent([{ toolCalls: [{ name: 'deploy', args: { target: 'prod' } }] }, { text: 'Not deployed.' }], {
      agent: { permissions: { ask: ['deploy'] }, approvals: 'wait' },
      onUpdate: (run, update) => (update.type === 'approval-requested' ? void setTimeout(() => run.approve(update.callId, { approved: false, reason: 'not today' }), 5) : undefined),
    });
    const { message } = await readAsClient(convert(events));
    expect(dataOf(message, 'cairn-approval')).toMatchObject([{ status: 'denied', decision: { approved: false, reason: 'not today' } }]);
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([{ state: 'output-error', errorText: expect.stringContaining('Permission denied for deploy') }]);
  });

  it('a cancelled run: the call in flight ends as an error, then message-metadata and abort (no finish, as the AI SDK does)', async () => {
    const events = await runAgent([{ text: 'Starting.', toolCalls: [{ name: 'slow', args: {} }] }, { text: 'never' }], {
      onUpdate: (run, update) => (update.type === 'tool-call-started' ? void setTimeout(() => run.cancel(), 20) : undefined),
    });
    const chunks = convert(events);
    expect(typesOf(chunks).slice(-3)).toEqual(['data-cairn-status', 'message-metadata', 'abort']);
    expectAiSdk5Fields(chunks);
    const { message } = await readAsClient(chunks);
    expect(partsOf(message, 'text')).toMatchObject([{ text: 'Starting.', state: 'done' }]);
    expect(partsOf(message, 'dynamic-tool')).toMatchObject([{ toolName: 'slow', state: 'output-error' }]);
    expect(dataOf(message, 'cairn-status')).toMatchObject([{ status: 'cancelled', error: { code: 'cancelled' } }]);
    expect(message.metadata).toMatchObject({ status: 'cancelled' });
    const { chat } = await chatWith(events);
    expect(chat.status).toBe('ready');
  });

  it('an error run: everything before the error chunk, so useChat (which stops there) still has the status and metadata', async () => {
    const events = await runAgent([{ text: 'partial answer', error: new Error('provider exploded') }], { agent: { retry: { maxAttempts: 1 } } });
    const chunks = convert(events);
    expect(typesOf(chunks).slice(-6)).toEqual(['text-end', 'finish-step', 'data-cairn-status', 'message-metadata', 'error', 'finish']);
    expect(chunks.find((chunk) => chunk.type === 'error')).toEqual({ type: 'error', errorText: 'provider exploded' });
    const { chat, reply } = await chatWith(events);
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe('provider exploded');
    expect(partsOf(reply, 'text')).toMatchObject([{ text: 'partial answer' }]);
    expect(dataOf(reply, 'cairn-status')).toEqual([{ status: 'error', error: { message: 'provider exploded', code: 'provider_error' } }]);
    expect(reply.metadata).toMatchObject({ status: 'error', finishReason: 'error', error: { message: 'provider exploded' } });
  });

  it('todos, a plan and a mode change (built as the runtime logs them) become data parts that later updates replace', async () => {
    const message = (body: object): RunEvent => ({ kind: 'message', message: { agent_id: 'agent-1', run_id: 'run-1', ...body } as never });
    const update = (body: object): RunEvent => ({ kind: 'update', update: body as never });
    const todo = (status: string) => [{ id: '1', content: 'Write the tests', status }];
    const events = stored([
      message({ type: 'system', subtype: 'init', model: { id: 'scripted/scripted-model' }, tools: ['create_plan'], mode: 'plan', cwd: '/work' }),
      message({ type: 'status', status: 'RUNNING', mode: 'plan' }),
      update({ type: 'step-started', stepId: 1, mode: 'plan' }),
      update({ type: 'todos-updated', todos: todo('pending') }),
      update({ type: 'plan-created', plan: { title: 'Tests first', steps: ['write', 'run'] } }),
      update({ type: 'mode-changed', from: 'plan', to: 'agent', source: 'plan-approval' }),
      message({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: 'agent', message: 'plan -> agent' }),
      update({ type: 'todos-updated', todos: todo('completed') }),
      update({ type: 'text-delta', text: 'Planned.' }),
      update({ type: 'turn-ended' }),
      update({ type: 'step-completed', stepId: 1, stepDurationMs: 3, finishReason: 'stop' }),
      message({ type: 'status', status: 'FINISHED' }),
    ]);
    const { message: reply } = await readAsClient(convert(events));
    expect(dataOf(reply, 'cairn-todos')).toEqual([{ todos: todo('completed') }]);
    expect(dataOf(reply, 'cairn-plan')).toEqual([{ plan: { title: 'Tests first', steps: ['write', 'run'] } }]);
    expect(dataOf(reply, 'cairn-mode')).toEqual([{ mode: 'agent', from: 'plan', source: 'plan-approval' }]);
    expect(partsOf(reply, 'text')).toMatchObject([{ text: 'Planned.' }]);
  });
});

describe('replays', () => {
  it('events pushed again (a reconnect that overlaps) add nothing; the final event ends the message once', async () => {
    const events = await runAgent([{ reasoning: { text: 'hmm' }, text: 'Let me check.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: 'Done.' }]);
    const once = convert(events);
    const converter = createUiChunkConverter({ messageId: 'msg-1' });
    const overlapped = [...events.slice(0, 10), ...events.slice(4), ...events].flatMap((event) => converter.push(event));
    expect(overlapped).toEqual(once);
    expect(converter.ended).toBe(true);
    expect(converter.end('finished')).toEqual([]);
    expect(typesOf(once).filter((type) => type === 'start' || type === 'finish')).toEqual(['start', 'finish']);
  });

  it('end() closes a log that stopped early: open text, open call and pending approval, and the run record totals', () => {
    const converter = createUiChunkConverter({ messageId: 'msg-1', runId: 'run-1' });
    const events = stored([
      { kind: 'update', update: { type: 'step-started', stepId: 1 } },
      { kind: 'update', update: { type: 'text-delta', text: 'Deploying' } },
      { kind: 'update', update: { type: 'tool-call-started', callId: 'c1', modelCallId: 'c1', toolCall: { type: 'deploy', name: 'deploy', callId: 'c1', args: {} } } },
      { kind: 'update', update: { type: 'approval-requested', callId: 'c1', kind: 'tool', reason: 'ask rule', toolName: 'deploy' } },
    ]);
    const pushed = events.flatMap((event) => converter.push(event));
    // The text part closed when the call began: a tool call is not text.
    expect(typesOf(pushed)).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'text-end', 'tool-input-start', 'tool-input-available', 'data-cairn-approval']);
    const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 3 };
    const end = converter.end('cancelled', { message: 'The run was cancelled.', code: 'cancelled' }, { usage, cost: { rawCostCents: 1, chargedCents: 1 } });
    expect(end).toEqual([
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'The call did not finish: the run was cancelled.', dynamic: true },
      { type: 'finish-step' },
      { type: 'data-cairn-approval', id: 'c1', data: { callId: 'c1', status: 'denied', request: { kind: 'tool', reason: 'ask rule', toolName: 'deploy' }, decision: { approved: false, reason: 'the run ended before it was answered', by: 'run-ended' } } },
      { type: 'data-cairn-usage', id: 'usage', data: { usage, cost: { rawCostCents: 1, chargedCents: 1 } } },
      { type: 'data-cairn-status', id: 'status', data: { status: 'cancelled', error: { message: 'The run was cancelled.', code: 'cancelled' } } },
      { type: 'message-metadata', messageMetadata: { runId: 'run-1', status: 'cancelled', usage, cost: { rawCostCents: 1, chargedCents: 1 }, error: { message: 'The run was cancelled.', code: 'cancelled' } } },
      { type: 'abort' },
    ]);
  });
});

describe('the chat request', () => {
  it("lastUserText reads the body useChat's transport really posts, text and an attached image", async () => {
    const events = await runAgent([{ text: 'A red pixel.' }]);
    const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const { body, reply } = await chatWith(events, { text: 'What is in this picture?', files: [{ type: 'file', mediaType: 'image/png', filename: 'pixel.png', url: `data:image/png;base64,${pixel}` }] });
    expect(body).toMatchObject({ id: 'chat-1', trigger: 'submit-message', messages: [{ role: 'user' }] });
    expect(lastUserText(body)).toEqual({ chatId: 'chat-1', trigger: 'submit-message', text: 'What is in this picture?', images: [{ data: pixel, mimeType: 'image/png' }] });
    expect(reply).toMatchObject({ id: 'msg-1', role: 'assistant' });
    expect(partsOf(reply, 'text')).toMatchObject([{ text: 'A red pixel.' }]);
  });
});

void asAiChunk;
