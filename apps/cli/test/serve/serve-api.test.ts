import { symlink } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, readEvents, type ServeProcess, startServe, tempWorkspace, testToken } from './serve-process.js';
import { model, type ServeFixture, serveFixture } from './serve-fixture.js';

let fixture: ServeFixture;
let server: ServeProcess;
let workspace: string;
let client: ReturnType<typeof api>;

beforeAll(async () => {
  fixture = await serveFixture('api', (text) => {
    if (text.includes('write a file')) return { toolCalls: [{ name: 'write', args: { path: 'notes/hello.txt', contents: 'hello\n' } }] };
    return { text: `echo: ${text}` };
  });
  workspace = await tempWorkspace();
  server = await startServe(fixture.cli.bin, { roots: [workspace], env: fixture.env });
  client = api(server.url);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await fixture?.dispose();
});

const createAgent = async (extra: Record<string, unknown> = {}) => {
  const created = await client.post('/v1/agents', { model, local: { cwd: workspace }, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.json as { agent: { agentId: string }; run?: { id: string } };
};

/** A POST over node:http: the server answers 413 before reading a huge body, which fetch reports as a closed socket. */
function postRaw(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${testToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const waitForEnd = (runId: string) => eventually(async () => {
  const run = await client.get(`/v1/runs/${runId}`);
  return run.json.status === 'running' ? undefined : run.json;
}, `run ${runId} to end`);

describe('cairn serve: the HTTP API', () => {
  it('refuses every /v1 route without the token, or with a wrong one', async () => {
    for (const path of ['/v1/agents', '/v1/models', '/v1/openapi.json', '/v1/runs/x/events']) {
      const missing = await api(server.url, '').get(path);
      expect(missing.status).toBe(401);
      expect(missing.json.error.code).toBe('unauthorized');
      expect((await api(server.url, 'wrong-token-wrong-token').get(path)).status).toBe(401);
    }
  });

  it('creates an agent with a first prompt, streams the run, and lists, gets, archives and deletes it', async () => {
    const { agent, run } = await createAgent({ name: 'first', prompt: { text: 'say hi' } });
    expect(run).toBeDefined();
    const ended = await waitForEnd(run!.id);
    expect(ended).toMatchObject({ status: 'finished', result: 'echo: say hi', agentId: agent.agentId, pendingApprovals: 0 });

    const { events } = await readEvents(server.url, run!.id);
    expect(events.at(-1)?.event).toBe('end');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ status: 'finished', run: { id: run!.id } });
    const ids = events.filter((event) => event.id).map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.some((event) => event.event === 'update' && JSON.parse(event.data).type === 'text-delta')).toBe(true);
    const messages = (await readEvents(server.url, run!.id, { query: '?only=messages' })).events.filter((event) => event.event === 'message');
    expect(messages.map((event) => JSON.parse(event.data).type)).toContain('assistant');

    expect((await client.get(`/v1/agents/${agent.agentId}`)).json).toMatchObject({ agentId: agent.agentId, name: 'first', cwd: workspace });
    const listed = await client.get('/v1/agents?limit=50');
    expect(listed.json.items.map((item: { agentId: string }) => item.agentId)).toContain(agent.agentId);
    const runs = await client.get(`/v1/agents/${agent.agentId}/runs`);
    expect(runs.json.items).toHaveLength(1);
    expect((await client.get(`/v1/runs/${run!.id}/conversation`)).json.turns[0].turn.userMessage.text).toBe('say hi');
    const usage = await client.get(`/v1/agents/${agent.agentId}/usage`);
    expect(usage.json.usage.inputTokens).toBeGreaterThan(0);

    expect((await client.post(`/v1/agents/${agent.agentId}/archive`)).json.archived).toBe(true);
    expect((await client.get('/v1/agents')).json.items.map((item: { agentId: string }) => item.agentId)).not.toContain(agent.agentId);
    expect((await client.get('/v1/agents?includeArchived=true')).json.items.map((item: { agentId: string }) => item.agentId)).toContain(agent.agentId);
    expect((await client.post(`/v1/agents/${agent.agentId}/unarchive`)).json.archived).toBe(false);
    expect((await client.delete(`/v1/agents/${agent.agentId}`)).status).toBe(204);
    expect((await client.get(`/v1/agents/${agent.agentId}`)).status).toBe(404);
  });

  it('sends runs to an agent, lists its artifacts and serves their bytes', async () => {
    const { agent } = await createAgent();
    const sent = await client.post(`/v1/agents/${agent.agentId}/runs`, { text: 'write a file' });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.json).toMatchObject({ status: 'running', agentId: agent.agentId });
    expect((await waitForEnd(sent.json.id)).status).toBe('finished');
    const artifacts = await client.get(`/v1/agents/${agent.agentId}/artifacts`);
    expect(artifacts.json.items.map((item: { path: string }) => item.path)).toContain('notes/hello.txt');
    const bytes = await client.get(`/v1/agents/${agent.agentId}/artifacts/${encodeURIComponent('notes/hello.txt')}`);
    expect(bytes.status).toBe(200);
    expect(bytes.text).toBe('hello\n');
    const outside = await client.get(`/v1/agents/${agent.agentId}/artifacts/${encodeURIComponent('../../etc/passwd')}`);
    expect(outside.status).toBeGreaterThanOrEqual(400);
    expect(outside.text).not.toContain('root:');
  });

  it('refuses workspaces outside the roots, by path and through a symlink', async () => {
    const elsewhere = await tempWorkspace('cairn-serve-outside-');
    const refused = await client.post('/v1/agents', { model, local: { cwd: elsewhere } });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('outside_roots');
    const link = join(workspace, 'escape');
    await symlink(elsewhere, link);
    expect((await client.post('/v1/agents', { model, local: { cwd: link } })).status).toBe(403);
    expect((await client.post('/v1/agents', { model, local: { cwd: 'relative/path' } })).status).toBe(400);
  });

  it('validates bodies with clear 400s, refuses unknown fields and caps the body size', async () => {
    const unknown = await client.post('/v1/agents', { model, local: { cwd: workspace }, colour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 'invalid_request' });
    expect(unknown.json.error.message).toContain('colour');
    const noCwd = await client.post('/v1/agents', { model });
    expect(noCwd.status).toBe(400);
    expect(noCwd.json.error.issues.map((issue: { path: string }) => issue.path)).toContain('local');
    const { agent } = await createAgent();
    const empty = await client.post(`/v1/agents/${agent.agentId}/runs`, { text: '   ' });
    expect(empty.status).toBe(400);
    const notJson = await client.raw('POST', `/v1/agents/${agent.agentId}/runs`, '{not json', { 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    const huge = await postRaw(`${server.url}/v1/agents/${agent.agentId}/runs`, JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) }));
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).error.code).toBe('payload_too_large');
    expect((await client.get('/v1/agents/agent-missing')).status).toBe(404);
    expect((await client.get('/v1/runs/run-missing')).status).toBe(404);
    const badModel = await client.post('/v1/agents', { model: 'nosuchprovider/model', local: { cwd: workspace } });
    expect(badModel.status).toBe(400);
    expect(badModel.json.error.code).toBe('configuration_error');
  });

  it('lists models and says what the server is', async () => {
    const models = await client.get('/v1/models');
    expect(models.status).toBe(200);
    expect(models.json.items.length).toBeGreaterThan(0);
    expect((await client.get('/v1/server')).json).toMatchObject({ roots: [workspace], defaultCwd: workspace });
  });

  it('serves an OpenAPI 3.1 document whose every path answers (not 404 for a route that exists)', async () => {
    const doc = (await client.get('/v1/openapi.json')).json;
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const expected of ['/v1/agents', '/v1/agents/{agentId}', '/v1/agents/{agentId}/runs', '/v1/runs/{runId}', '/v1/runs/{runId}/cancel', '/v1/runs/{runId}/events', '/v1/runs/{runId}/conversation', '/v1/runs/{runId}/approvals', '/v1/runs/{runId}/approvals/{callId}', '/v1/models', '/v1/agents/{agentId}/usage', '/v1/agents/{agentId}/artifacts', '/v1/agents/{agentId}/archive', '/v1/agents/{agentId}/unarchive']) {
      expect(paths).toContain(expected);
    }
    // Every documented operation is routed: an unknown id gives the API's own 404 body, never the router's.
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const concrete = path.replace(/\{[^}]+\}/g, 'missing-id');
        const response = await client.raw(method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? undefined : {});
        expect(response.status, `${method} ${path}`).not.toBe(405);
        if (response.status === 404) expect(response.json.error.message, `${method} ${path}`).not.toMatch(/^No route/);
      }
    }
  });
});
