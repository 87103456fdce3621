import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, readEvents, type ServeProcess, startServe, tempWorkspace } from './serve-process.js';
import { model, type ServeFixture, serveFixture } from './serve-fixture.js';

// "touch NAME" prompts make the model run `touch NAME`: a shell command that changes something, so
// under the server's interactive defaults it waits for a person's approval.
let fixture: ServeFixture;
let workspace: string;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  fixture = await serveFixture('approvals', (text) => {
    if (text.includes('make a plan')) {
      const plan = { name: 'Greeting', overview: 'Add a greeting file.', plan: '1. Write hello.txt', todos: [{ id: 'write', content: 'Write hello.txt', dependencies: [] }] };
      return { toolCalls: [{ name: 'create_plan', args: plan }, { name: 'switch_mode', args: { mode: 'agent', explanation: 'The plan is ready to build.' } }] };
    }
    const touch = /touch (\S+)/.exec(text);
    return touch ? { toolCalls: [{ name: 'run_terminal_cmd', args: { command: `touch ${touch[1]}` } }] } : { text: `echo: ${text}` };
  });
  workspace = await tempWorkspace();
}, 120_000);

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) await server.stop();
  await fixture?.dispose();
});

async function serve(): Promise<{ server: ServeProcess; client: ReturnType<typeof api> }> {
  const server = await startServe(fixture.cli.bin, { roots: [workspace], env: fixture.env });
  servers.push(server);
  return { server, client: api(server.url) };
}

async function waitingRun(client: ReturnType<typeof api>, text: string) {
  const created = await client.post('/v1/agents', { model, local: { cwd: workspace }, prompt: { text } });
  expect(created.status, created.text).toBe(201);
  const runId = created.json.run.id as string;
  const pending = await eventually(async () => {
    const list = await client.get(`/v1/runs/${runId}/approvals`);
    return list.json.items.find((item: { status: string }) => item.status === 'pending');
  }, 'a pending approval');
  return { agentId: created.json.agent.agentId as string, runId, pending };
}

const ended = (client: ReturnType<typeof api>, runId: string) =>
  eventually(async () => {
    const run = await client.get(`/v1/runs/${runId}`);
    return run.json.status === 'running' ? undefined : run.json;
  }, `run ${runId} to end`);

describe('cairn serve: approvals', () => {
  it('streams the request, is answered from a second client, and refuses a second answer', async () => {
    const { server, client } = await serve();
    const { runId, pending } = await waitingRun(client, 'please touch first.txt');
    expect(pending).toMatchObject({ kind: 'tool', toolName: 'run_terminal_cmd', args: { command: 'touch first.txt' } });
    expect((await client.get(`/v1/runs/${runId}`)).json.pendingApprovals).toBe(1);

    const first = readEvents(server.url, runId);
    const second = api(server.url);
    const answered = await second.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'allow' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.json).toMatchObject({ status: 'approved', decision: { approved: true, by: 'api' } });
    expect((await ended(client, runId)).status).toBe('finished');
    expect(existsSync(join(workspace, 'first.txt'))).toBe(true);

    const updates = (await first).events.filter((event) => event.event === 'update').map((event) => JSON.parse(event.data).type);
    expect(updates).toContain('approval-requested');
    expect(updates).toContain('approval-decided');
    const again = await client.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: 'conflict', approval: { status: 'approved' } });
    expect((await client.post(`/v1/runs/${runId}/approvals/no-such-call`, { decision: 'allow' })).status).toBe(404);
    expect((await client.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'maybe' })).status).toBe(400);
  });

  it('a denial reaches the model with its reason; allow-always is remembered for the workspace', async () => {
    const { client } = await serve();
    const denied = await waitingRun(client, 'please touch denied.txt');
    await client.post(`/v1/runs/${denied.runId}/approvals/${denied.pending.callId}`, { decision: 'deny', reason: 'not today' });
    expect((await ended(client, denied.runId)).result).toContain('done: ');
    expect(existsSync(join(workspace, 'denied.txt'))).toBe(false);
    const toolMessage = fixture.model.requests.at(-1)!.messages.at(-1);
    expect(toolMessage.role).toBe('tool');
    expect(String(toolMessage.content)).toContain('not today');

    const always = await waitingRun(client, 'please touch always.txt');
    expect((await client.post(`/v1/runs/${always.runId}/approvals/${always.pending.callId}`, { decision: 'allow-always' })).status).toBe(200);
    await ended(client, always.runId);
    // The same agent again: its open handle predates the rule, and the server answers from it.
    const sameAgent = await client.post(`/v1/agents/${always.agentId}/runs`, { text: 'please touch always.txt' });
    const repeated = await ended(client, sameAgent.json.id);
    expect(repeated.status).toBe('finished');
    expect((await client.get(`/v1/runs/${repeated.id}/approvals`)).json.items[0]).toMatchObject({ status: 'approved', decision: { by: 'api', reason: expect.stringContaining('allowed always') } });
    // The same command again, by a new agent: allowed without a question.
    const again = await client.post('/v1/agents', { model, local: { cwd: workspace }, prompt: { text: 'please touch always.txt' } });
    const run = await ended(client, again.json.run.id);
    expect(run.status).toBe('finished');
    expect((await client.get(`/v1/runs/${run.id}/approvals`)).json.items).toEqual([]);
  });

  it('a plan waits for approval in plan mode and, approved, the run goes on in agent mode', async () => {
    const { server, client } = await serve();
    const created = await client.post('/v1/agents', { model, mode: 'plan', local: { cwd: workspace }, prompt: { text: 'make a plan for a greeting' } });
    const runId = created.json.run.id as string;
    const pending = await eventually(async () => (await client.get(`/v1/runs/${runId}/approvals`)).json.items.find((item: { status: string }) => item.status === 'pending'), 'the plan approval');
    expect(pending).toMatchObject({ kind: 'plan', modeSwitch: { from: 'plan', to: 'agent' } });
    expect((await client.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'allow' })).status).toBe(200);
    expect((await ended(client, runId)).status).toBe('finished');
    const updates = (await readEvents(server.url, runId)).events.filter((event) => event.event === 'update').map((event) => JSON.parse(event.data));
    expect(updates.map((update) => update.type)).toContain('plan-created');
    expect(updates.find((update) => update.type === 'mode-changed')).toMatchObject({ to: 'agent' });
    expect((await client.get(`/v1/agents/${created.json.agent.agentId}`)).json.mode).toBe('agent');
  });

  it('a run waiting for approval survives a server restart (SIGKILL) and is answered by the new server', async () => {
    const { server, client } = await serve();
    const { runId, pending } = await waitingRun(client, 'please touch restarted.txt');
    await server.kill();

    const { client: next } = await serve();
    const still = await next.get(`/v1/runs/${runId}/approvals`);
    expect(still.json.items[0]).toMatchObject({ callId: pending.callId, status: 'pending' });
    expect((await next.get(`/v1/runs/${runId}`)).json.status).toBe('running');
    expect((await next.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'allow' })).status).toBe(200);
    expect((await ended(next, runId)).status).toBe('finished');
    expect(existsSync(join(workspace, 'restarted.txt'))).toBe(true);
  });

  it('a graceful stop (SIGTERM) leaves the waiting run for the next server', async () => {
    const { server, client } = await serve();
    const { runId, pending } = await waitingRun(client, 'please touch graceful.txt');
    expect(await server.stop()).toBe(0);
    const { client: next } = await serve();
    expect((await next.post(`/v1/runs/${runId}/approvals/${pending.callId}`, { decision: 'allow' })).status).toBe(200);
    expect((await ended(next, runId)).status).toBe('finished');
    expect(existsSync(join(workspace, 'graceful.txt'))).toBe(true);
  });
});
