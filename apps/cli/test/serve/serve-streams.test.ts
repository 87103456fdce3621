import { DefaultChatTransport, readUIMessageStream } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, readEvents, type ServeProcess, startServe, tempWorkspace, testToken } from './serve-process.js';
import { model, type ServeFixture, serveFixture } from './serve-fixture.js';

// "slow" prompts run `sleep 2` (allowed by the agent's rule); "long" ones answer with a long text.
let fixture: ServeFixture;
let server: ServeProcess;
let workspace: string;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  fixture = await serveFixture('streams', (text) => {
    // Long enough that a second server process started meanwhile (seconds under CI load) finds the agent held.
    if (text.includes('held')) return { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 10' } }] };
    if (text.includes('slow')) return { toolCalls: [{ name: 'run_terminal_cmd', args: { command: 'sleep 2' } }] };
    if (text.includes('long')) return { text: `${text}: ${'word '.repeat(300)}` };
    return { text: `echo: ${text}` };
  });
  workspace = await tempWorkspace();
  server = await startServe(fixture.cli.bin, { roots: [workspace], env: fixture.env, args: ['--heartbeat-ms', '200'] });
  client = api(server.url);
}, 120_000);

afterAll(async () => {
  if (server?.child.exitCode === null) await server.stop();
  await fixture?.dispose();
});

const agentFor = async (prompt?: string) => {
  const created = await client.post('/v1/agents', { model, local: { cwd: workspace }, permissions: { allow: ['shell(sleep *)'] }, ...(prompt ? { prompt: { text: prompt } } : {}) });
  expect(created.status, created.text).toBe(201);
  return created.json as { agent: { agentId: string }; run?: { id: string } };
};

const ended = (runId: string) =>
  eventually(async () => {
    const run = await client.get(`/v1/runs/${runId}`);
    return run.json.status === 'running' ? undefined : run.json;
  }, `run ${runId} to end`);

describe('cairn serve: event streams', () => {
  it('a client that drops mid-run and reconnects with Last-Event-ID misses nothing and gets nothing twice', async () => {
    const { run } = await agentFor('slow then long');
    const part = await readEvents(server.url, run!.id, { stopAfter: 5 });
    expect(part.events).toHaveLength(5);
    const rest = await readEvents(server.url, run!.id, { lastEventId: part.events.at(-1)?.id ?? "" });
    const full = await readEvents(server.url, run!.id);
    const ids = (events: { id?: string }[]) => events.filter((event) => event.id).map((event) => event.id);
    expect([...ids(part.events), ...ids(rest.events)]).toEqual(ids(full.events));
    expect(new Set(ids(full.events)).size).toBe(ids(full.events).length);
    expect(rest.events.at(-1)?.event).toBe('end');
    // ?after= is the same as Last-Event-ID, and ?token= stands in for the header (a browser EventSource).
    const plain = await fetch(`${server.url}/v1/runs/${run!.id}/events?after=${part.events.at(-1)!.id}&token=${testToken}`);
    expect(plain.status).toBe(200);
    const body = await plain.text();
    expect(body).not.toMatch(new RegExp(`^id: ${part.events.at(-1)!.id}$`, 'm'));
    expect(body).toContain('event: end');
  });

  it('sends heartbeats while a run is quiet; a disconnect never cancels the run; the cancel endpoint does', async () => {
    const { run } = await agentFor('slow');
    const quiet = await readEvents(server.url, run!.id);
    expect(quiet.comments).toBeGreaterThan(0);
    expect((await ended(run!.id)).status).toBe('finished');

    const { agent, run: second } = await agentFor('slow again');
    await readEvents(server.url, second!.id, { stopAfter: 2 });
    expect((await client.get(`/v1/runs/${second!.id}`)).json.status).toBe('running');
    const cancelled = await client.post(`/v1/runs/${second!.id}/cancel`);
    expect(cancelled.json.status).toBe('cancelled');
    const { events } = await readEvents(server.url, second!.id);
    expect(JSON.parse(events.at(-1)!.data).status).toBe('cancelled');
    // The agent is usable after the cancel.
    const next = await client.post(`/v1/agents/${agent.agentId}/runs`, { text: 'hello again' });
    expect((await ended(next.json.id)).result).toBe('echo: hello again');
  });

  it('a second send to a busy agent queues behind the running run', async () => {
    const { agent, run } = await agentFor('slow');
    const queued = await client.post(`/v1/agents/${agent.agentId}/runs`, { text: 'after the first one' });
    expect(queued.status).toBe(201);
    const first = await ended(run!.id);
    const second = await ended(queued.json.id);
    expect(first.status).toBe('finished');
    expect(second.result).toBe('echo: after the first one');
    expect(second.createdAt).toBeGreaterThanOrEqual(first.createdAt);
  });

  it('an agent held by another server process answers 409 agent_busy', async () => {
    const { agent, run } = await agentFor('held');
    const other = await startServe(fixture.cli.bin, { roots: [workspace], env: fixture.env });
    try {
      const busy = await api(other.url).post(`/v1/agents/${agent.agentId}/runs`, { text: 'me too' });
      expect(busy.status).toBe(409);
      expect(busy.json.error).toMatchObject({ code: 'agent_busy', runId: run!.id });
    } finally {
      await other.stop();
    }
    await ended(run!.id);
  });

  it('20 concurrent runs on 20 agents: every client gets every event of its run exactly once', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, index) => agentFor(`long ${index}`)));
    const streams = await Promise.all(created.map(({ run }) => readEvents(server.url, run!.id)));
    for (const [index, stream] of streams.entries()) {
      const runId = created[index]?.run?.id ?? "";
      const replay = await readEvents(server.url, runId);
      const ids = (events: { id?: string }[]) => events.filter((event) => event.id).map((event) => Number(event.id));
      expect(ids(stream.events)).toEqual(ids(replay.events));
      expect(ids(stream.events)).toEqual(Array.from({ length: ids(stream.events).length }, (_, offset) => offset + 1));
      const text = stream.events.filter((event) => event.event === 'update' && JSON.parse(event.data).type === 'text-delta').map((event) => JSON.parse(event.data).text).join('');
      expect(text).toBe(`long ${index}: ${'word '.repeat(300)}`);
      expect(stream.events.at(-1)?.event).toBe('end');
    }
  }, 120_000);

  it("speaks the AI SDK's UI message stream: useChat's transport sends and reads a run", async () => {
    const { agent } = await agentFor();
    const transport = new DefaultChatTransport({ api: `${server.url}/v1/agents/${agent.agentId}/chat`, headers: { authorization: `Bearer ${testToken}` } });
    const stream = await transport.sendMessages({
      chatId: 'chat-1', trigger: 'submit-message', messageId: undefined, abortSignal: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello useChat' }] }],
    });
    let last: any;
    for await (const message of readUIMessageStream({ stream })) last = message;
    const text = last.parts.filter((part: { type: string }) => part.type === 'text').map((part: { text: string }) => part.text).join('');
    expect(text).toBe('echo: hello useChat');
    const runs = await client.get(`/v1/agents/${agent.agentId}/runs`);
    expect(runs.json.items[0].status).toBe('finished');
    // The same run again, as UI chunks, for a client that reconnects.
    const again = await fetch(`${server.url}/v1/runs/${runs.json.items[0].id}/ui-stream`, { headers: { authorization: `Bearer ${testToken}` } });
    expect(again.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await again.text()).toContain('data: [DONE]');
  });
});
