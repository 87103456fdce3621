import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/registry.js';
import { createMemoryStore } from '../store/memory-store.js';
import { scriptedModel, scriptedProvider } from '../testing.js';
import type { AgentRuntime } from './agent-runtime.js';
import { agentRuntimeFor, registryFor } from './agent-registry.js';
import { createCairn } from './cairn.js';

function runtimeWith(registry = createRegistry()): AgentRuntime & { defaultStore: ReturnType<typeof createMemoryStore> } {
  const defaultStore = createMemoryStore();
  return { registry, owner: 'test-owner', leaseTtlMs: 30_000, store: () => defaultStore, defaultStore };
}

describe('AgentOptions.registry', () => {
  it('is the registry the agent uses; without it, the instance\'s', () => {
    const runtime = runtimeWith();
    const own = createRegistry([{ name: 'review', modes: [{ id: 'review', description: 'Review.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: [] }] }]);
    expect(registryFor(runtime, {})).toBe(runtime.registry);
    expect(registryFor(runtime, { registry: own })).toBe(own);
    const swapped = agentRuntimeFor(runtime, { registry: own });
    expect(swapped.registry.mode('review')?.description).toBe('Review.');
    expect(swapped.store()).toBe(runtime.defaultStore);
    expect(swapped.owner).toBe(runtime.owner);
    expect(agentRuntimeFor(runtime, {})).toBe(runtime);
  });

  it('refuses an object that is not a registry, naming what it lacks', () => {
    const runtime = runtimeWith();
    expect(() => registryFor(runtime, { registry: { tools: () => [] } as never })).toThrow(/AgentOptions.registry is not a registry \(it lacks use, provider, providers, mode,/);
    expect(() => registryFor(runtime, { registry: 'default' as never })).toThrow(/Pass one made with createRegistry/);
  });
});

describe('AgentOptions.registry, end to end', () => {
  it('gives the agent its models, tools and modes; a resume passes it again', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'peek', args: {} }] }, { text: 'Seen.' }, { text: 'Again.' }]);
    const peek = { id: 'peek', name: 'peek', description: 'Look.', inputSchema: { jsonSchema: { type: 'object' } }, readOnly: true, category: 'custom' as const, execute: () => 'looked' };
    const review = { id: 'review', description: 'Review.', promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'readOnlyHint' as const }, sandboxProfile: 'read-only' as const, transitionsTo: [] };
    const own = createRegistry([{ name: 'own', providers: [scriptedProvider({ 'scripted-model': model })], tools: [peek], modes: [review] }]);
    // The instance's registry has none of it.
    const { Agent } = createCairn();
    const cwd = await mkdtemp(join(tmpdir(), 'cairn-agent-registry-'));
    const env = { CAIRN_HOME: await mkdtemp(join(tmpdir(), 'cairn-agent-registry-home-')) };
    await expect(Agent.create({ model: 'scripted/scripted-model', mode: 'review', local: { cwd }, env })).rejects.toThrow(/Unknown mode "review"/);
    const store = createMemoryStore();
    const agent = await Agent.create({ model: 'scripted/scripted-model', mode: 'review', registry: own, local: { cwd, store }, env });
    const result = await (await agent.send('look')).wait();
    expect(result.status).toBe('finished');
    expect((model.calls[0]?.tools ?? []).map((tool) => tool.name)).toEqual(['peek']);
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('looked');
    await agent.close();
    const resumed = await Agent.resume(agent.agentId, { registry: own, local: { store }, env });
    expect((await (await resumed.send('again')).wait()).status).toBe('finished');
    await resumed.close();
  });
});
