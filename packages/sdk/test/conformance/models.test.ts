import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatCompletionsServer, type FakeProviderServer, startChatCompletionsServer, startFakeAnthropicServer } from '@cairn/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Cairn, ConfigurationError, createMemoryStore, type ModelSelection, registry } from '../../src/index.js';

// The catalog examples of the reference SDK's documentation, ported: the import, `Cursor` ->
// `Cairn` and model ids changed, nothing else. They read keys from process.env as the originals
// do, so each test sets the variables of one provider (a fake server's) and restores them after.

const providerVariables = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_API', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'CAIRN_MODEL'];
let savedEnv: NodeJS.ProcessEnv;
const servers: Array<ChatCompletionsServer | FakeProviderServer> = [];

beforeEach(() => {
  savedEnv = { ...process.env };
  for (const name of providerVariables) delete process.env[name];
  Cairn.configure({ local: { store: createMemoryStore() } });
});

afterEach(async () => {
  process.env = savedEnv;
  Cairn.configure({ local: { store: null } });
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An OpenAI-compatible Chat Completions fake as the only configured provider. */
async function openAIServer(text = 'Done.'): Promise<ChatCompletionsServer> {
  const server = await startChatCompletionsServer([{ text }]);
  servers.push(server);
  Object.assign(process.env, { OPENAI_API_KEY: 'sk-dummy', OPENAI_BASE_URL: server.url, OPENAI_API: 'chat' });
  return server;
}

const workspace = () => mkdtemp(join(tmpdir(), 'cairn-conformance-models-'));

describe('the router in the catalog', () => {
  it('is found as auto-smart with optimize_for, and a selection built from it runs on a concrete model', async () => {
    const server = await openAIServer();
    const cwd = await workspace();

    // "Discover Router in the model catalog", ported.
    const models = await Cairn.models.list();
    const router = models.find((model) => model.id === 'auto-smart');
    const optimizeFor = router?.parameters?.find((parameter) => parameter.id === 'optimize_for');
    if (!router || !optimizeFor) {
      throw new Error('Cairn Router is not available. Configure a provider with a model catalog.');
    }
    const requestedMode = 'balanced';
    const allowedValues = new Set(optimizeFor.values.map(({ value }) => value));
    if (!allowedValues.has(requestedMode)) {
      throw new Error(`Router mode "${requestedMode}" is not enabled.`);
    }
    const model: ModelSelection = {
      id: router.id,
      params: [{ id: optimizeFor.id, value: requestedMode }],
    };

    expect(allowedValues).toEqual(new Set(['cost', 'balanced', 'intelligence']));
    expect(Object.fromEntries(optimizeFor.values.map(({ value, displayName }) => [value, displayName]))).toEqual({ cost: 'Cost', balanced: 'Balance', intelligence: 'Intelligence' });
    expect(router.aliases).toEqual(['auto']);

    // "Cursor Router", ported.
    await using agent = await Agent.create({
      model,
      local: { cwd },
    });
    const run = await agent.send('Find and fix the failing authentication test');
    const result = await run.wait();
    expect(result.status).toBe('finished');
    // The router sent the request to a concrete catalog model: the cheapest balanced one.
    expect(server.requests[0]?.model).toBe('gpt-5-mini');
    expect(router.variants?.find((variant) => variant.isDefault)?.description).toContain('openai/gpt-5-mini');

    // The per-run override, ported: intelligence routes to a frontier model, and the override sticks.
    const override = await agent.send('Handle this complex migration', {
      model: {
        id: 'auto-smart',
        params: [{ id: 'optimize_for', value: 'intelligence' }],
      },
    });
    expect((await override.wait()).status).toBe('finished');
    expect(server.requests[1]?.model).toBe('gpt-5.1');
    await (await agent.send('Carry on')).wait();
    expect(server.requests[2]?.model).toBe('gpt-5.1');
    expect(server.problems).toEqual([]);
    // optimize_for is the router's: nothing of it reaches the provider.
    expect(JSON.stringify(server.requests)).not.toContain('optimize_for');
  });

  it('keeps `auto` working as the same router, and picks as for balanced without optimize_for', async () => {
    const server = await openAIServer();
    const cwd = await workspace();
    for (const id of ['auto', 'auto-smart']) {
      const agent = await Agent.create({ model: { id }, local: { cwd } });
      await (await agent.send('hi')).wait();
      await agent.close();
    }
    expect(server.requests.map((request) => request.model)).toEqual(['gpt-5-mini', 'gpt-5-mini']);
  });

  it('is not listed, and is refused clearly, when no provider is configured', async () => {
    const cwd = await workspace();
    expect((await Cairn.models.list()).some((model) => model.id === 'auto-smart')).toBe(false);
    await expect(Agent.create({ model: { id: 'auto-smart', params: [{ id: 'optimize_for', value: 'cost' }] }, local: { cwd } })).rejects.toThrow(
      /needs at least one configured provider with a model catalog, and none is configured\. Set one of OPENAI_API_KEY/,
    );
    await openAIServer();
    await expect(Agent.create({ model: { id: 'auto-smart', params: [{ id: 'optimize_for', value: 'speed' }] }, local: { cwd } })).rejects.toThrow(
      /"optimize_for" of the router \(auto-smart\) must be one of cost, balanced, intelligence \(got speed\)/,
    );
  });
});

describe('model parameters from the catalog', () => {
  it('"resolve by capability": a listed parameter value reaches the provider', async () => {
    const server = await openAIServer();
    const cwd = await workspace();

    // "Resolve by capability, not id", ported (reasoning effort for fast mode).
    const models = await Cairn.models.list();
    const gpt = models.find((m) => m.id === 'openai/gpt-5.2');
    const effort = gpt?.parameters?.find((p) => p.id === 'reasoningEffort');
    const highValue = effort?.values.find((v) => v.value === 'high')?.value;
    const model = gpt
      ? {
          id: gpt.id,
          params: highValue ? [{ id: 'reasoningEffort', value: highValue }] : undefined,
        }
      : {
          id: 'auto-smart',
          params: [{ id: 'optimize_for', value: 'balanced' }],
        };

    expect(highValue).toBe('high');
    const agent = await Agent.create({ model, local: { cwd } });
    expect((await (await agent.send('Plan the refactor')).wait()).status).toBe('finished');
    expect(server.requests[0]).toMatchObject({ model: 'gpt-5.2', reasoning_effort: 'high' });
    await agent.close();
  });

  it('"resolve by capability" falls back to the router when the model is missing', async () => {
    const server = await startFakeAnthropicServer([{ text: 'Planned.' }]);
    servers.push(server);
    Object.assign(process.env, { ANTHROPIC_API_KEY: 'sk-ant-dummy', ANTHROPIC_BASE_URL: server.url });
    const cwd = await workspace();

    const models = await Cairn.models.list();
    const gpt = models.find((m) => m.id === 'openai/gpt-5.2');
    const model = gpt
      ? { id: gpt.id, params: [{ id: 'reasoningEffort', value: 'high' }] }
      : {
          id: 'auto-smart',
          params: [{ id: 'optimize_for', value: 'balanced' }],
        };

    expect(model.id).toBe('auto-smart');
    const agent = await Agent.create({ model, local: { cwd } });
    expect((await (await agent.send('Plan the refactor')).wait()).status).toBe('finished');
    // The pick is the one the catalog announces for balanced.
    const announced = models.find((m) => m.id === 'auto-smart')?.variants?.find((variant) => variant.params[0]?.value === 'balanced')?.description;
    expect(announced).toContain(`anthropic/${server.requests[0]?.model}`);
    expect(server.problems).toEqual([]);
    await agent.close();
  });

  it('a preset variant copied into the selection is accepted and applied', async () => {
    const server = await openAIServer();
    const cwd = await workspace();
    const models = await Cairn.models.list();
    const o4 = models.find((m) => m.id === 'openai/o4-mini');
    const low = o4?.variants?.find((variant) => variant.params.some((param) => param.value === 'low'));
    expect(low?.params).toEqual([{ id: 'reasoningEffort', value: 'low' }]);
    const agent = await Agent.create({ model: { id: o4!.id, params: low!.params }, local: { cwd } });
    await (await agent.send('hi')).wait();
    expect(server.requests[0]).toMatchObject({ model: 'o4-mini', reasoning_effort: 'low' });
    await agent.close();
  });
});

describe('model ids', () => {
  it('accepts a bare catalog id, the way a ported program names its model', async () => {
    const server = await openAIServer('Summary.');
    const cwd = await workspace();
    const result = await Agent.prompt('Summarize what this repository does', { model: { id: 'gpt-4.1-mini' }, local: { cwd } });
    expect(result.status).toBe('finished');
    expect(server.requests[0]?.model).toBe('gpt-4.1-mini');
  });

  it('accepts every id and alias Cairn.models.list() returns, and every listed parameter value', async () => {
    const cwd = await workspace();
    const env = { OPENAI_API_KEY: 'sk-dummy', ANTHROPIC_API_KEY: 'sk-ant-dummy', GEMINI_API_KEY: 'gemini-dummy' };
    const store = createMemoryStore();
    const models = await Cairn.models.list({ env });
    expect(models.length).toBeGreaterThan(20);
    const accepted: string[] = [];
    for (const item of models) {
      // Creating an agent resolves its model (and checks its params) without a request.
      const concrete = registry.resolveModel(item.id, { env }).id;
      for (const id of [item.id, ...(item.aliases ?? [])]) {
        const agent = await Agent.create({ model: { id }, local: { cwd, store }, env });
        await agent.close();
        expect(registry.resolveModel(id, { env }).id, `${id} resolves to the model it is listed under`).toBe(concrete);
        accepted.push(id);
      }
      const selections = [
        ...(item.parameters ?? []).flatMap((parameter) => parameter.values.map(({ value }) => [{ id: parameter.id, value }])),
        ...(item.variants ?? []).map((variant) => variant.params),
      ];
      for (const params of selections) {
        const agent = await Agent.create({ model: { id: item.id, params }, local: { cwd, store }, env });
        await agent.close();
      }
    }
    expect(accepted).toEqual(expect.arrayContaining(['auto-smart', 'auto', 'openai/gpt-5.2', 'gpt-5.2', 'claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5', 'gemini-2.5-pro']));
  });

  it('refuses an unknown id with close matches and how to list models', async () => {
    await openAIServer();
    const cwd = await workspace();
    const creating = Agent.create({ model: { id: 'gpt-5.3' }, local: { cwd } });
    await expect(creating).rejects.toBeInstanceOf(ConfigurationError);
    await expect(Agent.create({ model: { id: 'gpt-5.3' }, local: { cwd } })).rejects.toThrow(/^Unknown model "gpt-5\.3".*Did you mean "openai\/gpt-5\.2".*Cairn\.models\.list\(\)/);
    await expect(Agent.create({ model: { id: 'gpt-5.2', params: [{ id: 'reasoningEffort', value: 'extreme' }] }, local: { cwd } })).rejects.toThrow(
      'Parameter "reasoningEffort" of openai/gpt-5.2 must be one of none, low, medium, high, xhigh (got extreme).',
    );
    await expect(Agent.create({ model: { id: 'gpt-5.2', param: [] } as never, local: { cwd } })).rejects.toThrow(/model has no field "param"/);
  });
});
