import { describe, expect, it } from 'vitest';
import { createMemoryStore, type ModelCatalogEntry, type ProviderV1 } from '../src/index.js';
import { createCairn, subagentsPlugin } from '../src/node.js';
import { scriptedModel } from '../src/testing.js';
import { tempWorkspace } from './helpers.js';
import { subagentSetup, textTool, type TurnView } from './subagents-helpers.js';

const model = 'scripted/scripted-model';
const readTool = textTool({ id: 'look', readOnly: true, execute: (text) => `looked at ${text}` });
const writeTool = textTool({ id: 'write_note', readOnly: false, execute: (text) => `wrote ${text}` });
const lastUser = (view: TurnView) => JSON.stringify(view.call.prompt.filter((message) => message.role === 'user').at(-1) ?? '');

describe('a subagent resumed on its own (after its parent is gone)', () => {
  it('keeps the rights its parent gave it: the same tools, no task tool at depth 2, its instructions', async () => {
    const calls: Array<{ level: string; tools: string[]; system: string }> = [];
    const route = (view: TurnView) => {
      const level = lastUser(view).includes('again') ? 'resumed' : (/LEVEL-(\d)/.exec(view.firstUser)?.[1] ?? '0');
      calls.push({ level, tools: [...view.toolNames].sort(), system: JSON.stringify(view.call.prompt.filter((message) => message.role === 'system')) });
      if (view.toolResults.length > 0 || level === '2' || level === 'resumed') return { text: `level ${level} done` };
      const type = level === '0' ? 'explore' : 'generalPurpose';
      return { toolCalls: [{ name: 'task', args: { description: `level ${Number(level) + 1}`, prompt: `Go to LEVEL-${Number(level) + 1}`, subagent_type: type } }] };
    };
    const { Agent, store } = subagentSetup(route, [readTool, writeTool]);
    const cwd = await tempWorkspace();
    const agent = await Agent.create({ model, local: { cwd, store } });
    expect((await (await agent.send('nest twice')).wait()).result).toBe('level 0 done');
    await agent.close();

    const records = (await store.agents.list()).items;
    const depthOf = (level: string) => records.find((record) => record.name?.startsWith(`${level === '1' ? 'explore' : 'generalPurpose'}: level ${level}`));
    for (const level of ['1', '2']) {
      const original = calls.find((call) => call.level === level)!;
      const child = depthOf(level)!;
      expect(child.parentAgentId).toBeDefined();
      const resumed = await Agent.resume(child.agentId, { local: { cwd, store } });
      expect((await (await resumed.send('again, please')).wait()).result).toBe('level resumed done');
      await resumed.close();
      const again = calls.at(-1)!;
      // The explore child (depth 1) had read-only tools and the task tool; the depth-2 child had no task tool.
      expect(again.tools).toEqual(original.tools);
      expect(again.system).toContain('You are a subagent');
    }
    expect(calls.find((call) => call.level === '1')!.tools).toEqual(['look', 'task']);
    expect(calls.find((call) => call.level === '2')!.tools).toEqual(['look']);
  });

  it("a caller's tools list narrows a resumed subagent's tools, never widens them", async () => {
    const seen: string[][] = [];
    const { Agent, store } = subagentSetup((view) => {
      seen.push([...view.toolNames].sort());
      if (view.firstUser.includes('CHILD')) return { text: 'child done' };
      return view.toolResults.length ? { text: 'parent done' } : { toolCalls: [{ name: 'task', args: { description: 'look', prompt: 'CHILD look around', subagent_type: 'explore' } }] };
    }, [readTool, writeTool]);
    const cwd = await tempWorkspace();
    const agent = await Agent.create({ model, local: { cwd, store } });
    await (await agent.send('go')).wait();
    await agent.close();
    const child = (await store.agents.list()).items.find((record) => record.parentAgentId === agent.agentId)!;
    const resumed = await Agent.resume(child.agentId, { tools: ['write_note', 'look'], local: { cwd, store } });
    await (await resumed.send('again')).wait();
    await resumed.close();
    expect(seen.at(-1)).toEqual(['look']);
  });
});

describe('subagent cost', () => {
  const entry = (id: string, inputPerMillion: number): ModelCatalogEntry => ({
    id, provider: 'acme', contextWindow: 100_000, maxOutputTokens: 8_000, tier: 'balanced',
    capabilities: { tools: true, images: false, reasoning: false }, pricing: { inputPerMillion, outputPerMillion: inputPerMillion * 4 },
  });

  it("is priced at the model each subagent used, not at the parent's", async () => {
    const models: string[] = [];
    const provider: ProviderV1 = {
      specificationVersion: 'v1', id: 'acme',
      languageModel: (modelId) => scriptedModel([(call) => {
        models.push(modelId);
        if (JSON.stringify(call.prompt.find((message) => message.role === 'user')).includes('CHEAP work')) return { text: 'cheap answer' };
        return call.prompt.some((message) => message.role === 'tool') ? { text: 'parent done' } : { toolCalls: [{ name: 'task', args: { description: 'cheap', prompt: 'CHEAP work', subagent_type: 'cheap' } }] };
      }], { provider: 'acme', modelId, repeatLast: true }),
      models: () => [entry('big', 10), entry('small', 1)],
      isConfigured: () => true,
    };
    const { Agent } = createCairn({ plugins: [{ name: 'acme', providers: [provider] }, subagentsPlugin] });
    const store = createMemoryStore();
    const agent = await Agent.create({
      model: 'acme/big',
      agents: { cheap: { description: 'Cheap work.', prompt: 'Be brief.', model: 'acme/small' } },
      local: { cwd: await tempWorkspace(), store },
    });
    const run = await agent.send('delegate');
    expect((await run.wait()).result).toBe('parent done');
    expect(models).toEqual(['big', 'small', 'big']);
    // Each turn reports 10 input and 5 output tokens. Parent: 2 turns at 10/40 $ per million = 0.06 cents;
    // child: 1 turn at 1/4 $ per million = 0.003 cents. Priced at the parent's model the child would cost 0.05.
    const usage = await agent.getUsage();
    expect(usage.usage).toMatchObject({ inputTokens: 30, outputTokens: 15 });
    expect(usage.runs.find((entry) => entry.runId === run.id)?.cost).toEqual({ rawCostCents: 0.063, chargedCents: 0.063 });
    const child = (await store.agents.list()).items.find((record) => record.parentAgentId === agent.agentId)!;
    expect((await Agent.getUsage(child.agentId, { store })).cost).toEqual({ rawCostCents: 0.003, chargedCents: 0.003 });
    await agent.close();
  });
});
