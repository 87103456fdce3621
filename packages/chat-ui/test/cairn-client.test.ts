import { afterEach, describe, expect, it } from 'vitest';
import { CairnApiError, CairnClient, type ConnectionState, type RunStreamEvent } from '../src/index.js';
import { frame, startServer } from './support/sse-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

async function serve(handler: Parameters<typeof startServer>[0]) {
  const started = await startServer(handler);
  closers.push(started.close);
  return started;
}

const run = { id: 'run-1', agentId: 'a1', requestId: 'r', status: 'finished', mode: 'agent', model: { id: 'm' }, createdAt: 1, pendingApprovals: 0 };
const update = (offset: number) => frame('update', { type: 'text-delta', text: `t${offset}` }, offset);

describe('CairnClient', () => {
  it('sends the bearer token and JSON bodies, and reads JSON answers', async () => {
    const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];
    const { url } = await serve((request, response, body) => {
      seen.push({ method: request.method, url: request.url, auth: request.headers.authorization, body });
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(run));
    });
    const client = new CairnClient({ baseUrl: `${url}/`, token: 'secret' });
    await expect(client.sendRun('a 1', { text: 'hello', mode: 'plan' })).resolves.toEqual(run);
    await client.answerApproval('run-1', 'mode-switch-2', { decision: 'allow-always' });
    await client.downloadArtifact('a1', 'docs/notes.md');
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/agents/a%201/runs', auth: 'Bearer secret', body: '{"text":"hello","mode":"plan"}' },
      { method: 'POST', url: '/v1/runs/run-1/approvals/mode-switch-2', auth: 'Bearer secret', body: '{"decision":"allow-always"}' },
      { method: 'GET', url: '/v1/agents/a1/artifacts/docs%2Fnotes.md', auth: 'Bearer secret', body: '' },
    ]);
  });

  it('puts list queries in the URL and treats 204 as no body', async () => {
    const urls: string[] = [];
    const { url } = await serve((request, response) => {
      urls.push(`${request.method} ${request.url}`);
      if (request.method === 'DELETE') return response.writeHead(204).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}');
    });
    const client = new CairnClient({ baseUrl: url, token: 't' });
    await client.listAgents({ limit: 20, includeArchived: false });
    await client.listRuns('a1', { limit: 1 });
    await expect(client.deleteAgent('a1')).resolves.toBeUndefined();
    expect(urls).toEqual(['GET /v1/agents?limit=20&includeArchived=false', 'GET /v1/agents/a1/runs?limit=1', 'DELETE /v1/agents/a1']);
  });

  it("throws the server's error as a CairnApiError with status, code, message and details", async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'agent_busy', message: 'Agent a1 is busy', runId: 'run-9' } }));
    });
    const error = await new CairnClient({ baseUrl: url, token: 't' }).sendRun('a1', { text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CairnApiError);
    expect(error).toMatchObject({ status: 409, code: 'agent_busy', message: 'Agent a1 is busy', details: { runId: 'run-9' } });
  });

  it('reports an unreachable server as a network_error', async () => {
    const { url, close } = await startServer(() => undefined);
    await close();
    await expect(new CairnClient({ baseUrl: url, token: 't' }).getRun('x')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('CairnClient.streamRun', () => {
  it('reconnects with Last-Event-ID after a dropped connection: nothing missed, nothing twice', async () => {
    const resumedFrom: Array<string | undefined> = [];
    const { url } = await serve((request, response) => {
      const last = request.headers['last-event-id'] as string | undefined;
      resumedFrom.push(last);
      expect(request.headers.authorization).toBe('Bearer t');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (last === undefined) {
        // Three events, the third cut in the middle of its frame, then the connection drops.
        response.write(': ping\n\n' + update(1) + update(2) + update(3).slice(0, 12));
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      const after = Number(last);
      // The server may also resend one it already sent; the client must not pass it on twice.
      response.end(update(after) + update(after + 1) + update(after + 2) + frame('end', { status: 'finished', run }));
    });
    const events: RunStreamEvent[] = [];
    const states: ConnectionState[] = [];
    let ended: unknown;
    const end = await new CairnClient({ baseUrl: url, token: 't' }).streamRun('run-1', {
      onEvent: (event) => events.push(event),
      onEnd: (value) => (ended = value),
      onConnection: (state) => states.push(state),
      minDelayMs: 10,
    });
    expect(events.map((event) => event.offset)).toEqual([1, 2, 3, 4]);
    expect(events[0]).toEqual({ kind: 'update', offset: 1, update: { type: 'text-delta', text: 't1' } });
    expect(resumedFrom).toEqual([undefined, '2']);
    expect(end).toEqual({ status: 'finished', run });
    expect(ended).toEqual(end);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('starts after a given offset and passes messages and updates apart', async () => {
    const { url } = await serve((request, response) => {
      expect(request.headers['last-event-id']).toBe('5');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(frame('message', { type: 'usage', usage: {} }, 6) + update(7) + frame('end', { status: 'cancelled', run }));
    });
    const events: RunStreamEvent[] = [];
    await new CairnClient({ baseUrl: url, token: 't' }).streamRun('run-1', { after: 5, onEvent: (event) => events.push(event) });
    expect(events.map((event) => `${event.kind}:${event.offset}`)).toEqual(['message:6', 'update:7']);
  });

  it('stops without reconnecting on an answer retrying cannot fix', async () => {
    let calls = 0;
    const { url } = await serve((_request, response) => {
      calls++;
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'Run x was not found' } }));
    });
    const states: ConnectionState[] = [];
    await expect(new CairnClient({ baseUrl: url, token: 't' }).streamRun('x', { onEvent: () => undefined, onConnection: (state) => states.push(state) })).rejects.toMatchObject({ code: 'not_found' });
    expect(calls).toBe(1);
    expect(states).toEqual(['connecting', 'closed']);
  });

  it('retries a failing server with growing delays until it answers', async () => {
    const times: number[] = [];
    const { url } = await serve((_request, response) => {
      times.push(Date.now());
      if (times.length < 3) return response.writeHead(500).end('{"error":{"code":"internal","message":"boom"}}');
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end(update(1) + frame('end', { status: 'finished', run }));
    });
    const events: RunStreamEvent[] = [];
    await new CairnClient({ baseUrl: url, token: 't' }).streamRun('run-1', { onEvent: (event) => events.push(event), minDelayMs: 40, maxDelayMs: 1000 });
    expect(events).toHaveLength(1);
    const [first = 0, second = 0, third = 0] = times;
    expect(second - first).toBeGreaterThanOrEqual(35);
    expect(third - second).toBeGreaterThanOrEqual(75);
  });

  it('stops when the caller aborts, leaving the run alone', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(update(1));
    });
    const controller = new AbortController();
    const states: ConnectionState[] = [];
    const done = new CairnClient({ baseUrl: url, token: 't' }).streamRun('run-1', {
      signal: controller.signal,
      onEvent: () => controller.abort(),
      onConnection: (state) => states.push(state),
    });
    await expect(done).resolves.toBeUndefined();
    expect(states.at(-1)).toBe('closed');
  });

  it('treats a silent connection as dead and reconnects', async () => {
    let connections = 0;
    const { url } = await serve((_request, response) => {
      connections++;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections === 1) return void response.write(update(1));
      response.end(update(2) + frame('end', { status: 'finished', run }));
    });
    const events: RunStreamEvent[] = [];
    await new CairnClient({ baseUrl: url, token: 't' }).streamRun('run-1', { onEvent: (event) => events.push(event), idleTimeoutMs: 100, minDelayMs: 10 });
    expect(events.map((event) => event.offset)).toEqual([1, 2]);
    expect(connections).toBe(2);
  });
});
