import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeModelTurn, FakeProviderServer } from '@cairn/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions, ConfigurationError, createMemoryStore, type CustomTool, type SDKCustomTool, type SDKCustomToolContext, type SDKMessage } from '../../src/index.js';
import { makeWorkspace, type ProviderCase, providerCases } from '../provider-harness.js';
import { oneCasePerWire, wireOf } from './wire-inspection.js';

const servers: FakeProviderServer[] = [];
const httpServers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(httpServers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/** The deployment API the document's example fetches from: a real local HTTP server. */
async function startDeploysApi(): Promise<string> {
  const server = createServer((request, response) => {
    const service = request.url?.split('/').pop();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: service === 'checkout' ? 'deployed' : 'pending', build: 'b-1234' }));
  });
  httpServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Extra = Pick<AgentOptions, 'tools' | 'disallowedTools'> & { customTools?: Record<string, CustomTool> };

async function agentFor(provider: ProviderCase, turns: FakeModelTurn[], { customTools, ...options }: Extra = {}) {
  const server = await provider.start(turns);
  servers.push(server);
  const store = createMemoryStore();
  const agent = await Agent.create({
    model: provider.model,
    env: provider.env(server.url),
    retry: { maxAttempts: 1 },
    ...options,
    local: { cwd: await makeWorkspace(), store, ...(customTools ? { customTools } : {}) },
  });
  return { agent, server, store };
}

describe.each(oneCasePerWire(providerCases))('the documented custom-tool examples through $name', (provider) => {
  it('runs a plain-JSON-Schema tool set on create, then a no-schema tool passed on one send that replaces it', async () => {
    const deploys = await startDeploysApi();
    const calls: Array<{ args: unknown; context: SDKCustomToolContext }> = [];
    const getDeploymentStatus: SDKCustomTool = {
      description: 'Look up the current deployment status for a service.',
      inputSchema: {
        type: 'object',
        properties: {
          service: { type: 'string', description: 'Service name' },
        },
        required: ['service'],
      },
      async execute({ service }, context) {
        calls.push({ args: { service }, context });
        const res = await fetch(`${deploys}/api/${String(service)}`);
        const body = (await res.json()) as { status: string; build: string };
        return `Service ${String(service)} is ${body.status} (build ${body.build}).`;
      },
    };
    let promoted = 0;
    const { agent, server } = await agentFor(
      provider,
      [
        { reasoning: 'Ask the deployment API.', toolCalls: [{ name: 'get_deployment_status', args: { service: 'checkout' } }] },
        { text: 'Yes: checkout is deployed.' },
        { reasoning: 'The canary is healthy.', toolCalls: [{ name: 'promote_canary', args: {} }] },
        { text: 'The canary is promoted.' },
        { text: 'Still here.' },
      ],
      { customTools: { get_deployment_status: getDeploymentStatus } },
    );

    const first = await agent.send('Is the checkout service deployed yet?').then((r) => r.wait());
    expect(first.status).toBe('finished');
    expect(first.result).toBe('Yes: checkout is deployed.');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toEqual({ service: 'checkout' });
    expect(calls[0]!.context.toolCallId).toMatch(/\S/);
    const wire = wireOf(provider);
    expect(wire.tools(server.requests[0]!).find((tool) => tool.name === 'get_deployment_status')).toEqual({
      name: 'get_deployment_status',
      description: 'Look up the current deployment status for a service.',
      schema: { type: 'object', properties: { service: { type: 'string', description: 'Service name' } }, required: ['service'] },
    });
    expect(wire.toolResults(server.requests[1]!)).toEqual([{ text: 'Service checkout is deployed (build b-1234).', isError: provider.name.startsWith('OpenAI') ? undefined : false, images: [] }]);

    const second = await agent.send('Roll forward if the canary is healthy', {
      local: {
        customTools: {
          promote_canary: {
            description: 'Promote the current canary build to production.',
            async execute() {
              promoted++;
              return { content: [{ type: 'text', text: 'Promoted.' }] };
            },
          },
        },
      },
    });
    expect((await second.wait()).status).toBe('finished');
    expect(promoted).toBe(1);
    const replaced = wire.tools(server.requests[2]!);
    expect(replaced.find((tool) => tool.name === 'promote_canary')?.schema).toEqual({ type: 'object', properties: {} });
    expect(replaced.some((tool) => tool.name === 'get_deployment_status')).toBe(false);
    expect(wire.toolResults(server.requests[3]!).map((result) => result.text)).toEqual(['Promoted.']);

    // The replacement was for that run only: the next send offers the agent's tools again.
    expect((await (await agent.send('Anything else?')).wait()).status).toBe('finished');
    expect(wire.tools(server.requests[4]!).map((tool) => tool.name)).toContain('get_deployment_status');
    expect(wire.tools(server.requests[4]!).map((tool) => tool.name)).not.toContain('promote_canary');
    expect(server.problems).toEqual([]);
  });

  it('sends every documented result form to the model, and a throwing tool does not end the run', async () => {
    const tool = (execute: SDKCustomTool['execute']): SDKCustomTool => ({ description: 'A result form.', execute });
    const customTools: Record<string, SDKCustomTool> = {
      as_string: tool(() => 'Deployed.'),
      as_number: tool(() => 42),
      as_array: tool(() => ['a', 1, true]),
      as_object: tool(() => ({ status: 'ok', build: 7 })),
      as_envelope: tool(() => ({ content: [{ type: 'text', text: 'Screenshot:' }, { type: 'image', data: png, mimeType: 'image/png' }] })),
      as_error: tool(() => ({ content: [{ type: 'text', text: 'canary unhealthy' }], isError: true })),
      as_structured: tool(() => ({ content: [{ type: 'text', text: 'Promoted.' }], structuredContent: { build: 7 } })),
      as_throw: tool(() => {
        throw new Error('deploy API down');
      }),
    };
    const names = Object.keys(customTools);
    const { agent, server } = await agentFor(provider, [{ reasoning: 'Call them all.', toolCalls: names.map((name) => ({ name, args: {} })) }, { text: 'All seen.' }], { customTools });
    const run = await agent.send('Call every tool.');
    const messages: SDKMessage[] = [];
    for await (const message of run.stream()) messages.push(message);
    const result = await run.wait();
    expect(result.status).toBe('finished');
    expect(result.result).toBe('All seen.');

    const flags = provider.name.startsWith('OpenAI');
    const results = wireOf(provider).toolResults(server.requests[1]!);
    expect(results.map((entry) => entry.text).slice(0, 7)).toEqual(['Deployed.', '42', '["a",1,true]', '{"status":"ok","build":7}', 'Screenshot:', 'canary unhealthy', 'Promoted.\n{"build":7}']);
    expect(results[7]!.text).toContain('deploy API down');
    expect(results.map((entry) => entry.isError)).toEqual(flags ? names.map(() => undefined) : [false, false, false, false, false, true, false, true]);
    expect(results.map((entry) => entry.images)).toEqual([[], [], [], [], [{ mediaType: 'image/png', data: png }], [], [], []]);
    const statuses = messages.flatMap((message) => (message.type === 'tool_call' && message.status !== 'running' ? [`${message.name}:${message.status}`] : []));
    expect(statuses.sort()).toEqual(['as_array:completed', 'as_envelope:completed', 'as_error:error', 'as_number:completed', 'as_object:completed', 'as_string:completed', 'as_structured:completed', 'as_throw:error']);
    expect(server.problems).toEqual([]);
  });
});

describe('custom tools are the mcp group of tools and disallowedTools', () => {
  const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;
  const customTools = { get_deployment_status: { description: 'Status.', execute: () => 'deployed' } };
  const offered = async (options: Extra) => {
    const { agent, server } = await agentFor(chat, [{ text: 'ok' }], { ...options, customTools });
    await (await agent.send('go')).wait();
    return wireOf(chat).tools(server.requests[0]!).map((tool) => tool.name);
  };

  it('disallowedTools ["mcp"] or the tool’s own name removes them; tools ["mcp"] or the name offers only them', async () => {
    expect(await offered({})).toContain('get_deployment_status');
    expect(await offered({ disallowedTools: ['mcp'] })).not.toContain('get_deployment_status');
    expect(await offered({ disallowedTools: ['get_deployment_status'] })).not.toContain('get_deployment_status');
    expect(await offered({ tools: ['mcp'] })).toEqual(['get_deployment_status']);
    expect(await offered({ tools: ['get_deployment_status'] })).toEqual(['get_deployment_status']);
  });
});

describe('a bad custom tool is a ConfigurationError of create, resume and send, never a failed run', () => {
  const chat = providerCases.find((provider) => provider.name === 'OpenAI Chat Completions')!;
  const bad = { lookup: { description: 'Bad schema.', inputSchema: { type: 'string' }, execute: () => 'x' } };

  it('at Agent.create and Agent.resume', async () => {
    const cwd = await makeWorkspace();
    const store = createMemoryStore();
    await expect(Agent.create({ model: chat.model, env: chat.env('http://127.0.0.1:9'), local: { cwd, store, customTools: bad } })).rejects.toThrow(ConfigurationError);
    await expect(Agent.create({ model: chat.model, env: chat.env('http://127.0.0.1:9'), local: { cwd, store, customTools: bad } })).rejects.toThrow(/Custom tool "lookup": inputSchema cannot be used: its root must be \{ type: "object"/);
    await expect(Agent.create({ model: chat.model, env: chat.env('http://127.0.0.1:9'), local: { cwd, store, customTools: { lookup: { description: 'No execute.' } as never } } })).rejects.toThrow(/"lookup" needs an execute function/);
    const agent = await Agent.create({ model: chat.model, env: chat.env('http://127.0.0.1:9'), local: { cwd, store } });
    await expect(Agent.resume(agent.agentId, { local: { cwd, store, customTools: bad } })).rejects.toThrow(/Custom tool "lookup"/);
  });

  it('at send, with no run created and no request made', async () => {
    const { agent, server, store } = await agentFor(chat, [{ text: 'ok' }]);
    const sent = agent.send('go', { local: { customTools: bad } });
    await expect(sent).rejects.toThrow(ConfigurationError);
    await expect(sent).rejects.toThrow(/Custom tool "lookup": inputSchema cannot be used/);
    expect((await store.runs.list(agent.agentId)).items).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
