import { describe, expect, it } from 'vitest';
import { createRegistry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { StoreFactoryContext } from '../spec/plugin/v1/index.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { AgentRuntime } from './agent-runtime.js';
import { namedStore, resolveAgentStore } from './agent-store-choice.js';

function runtimeWith(registry = createRegistry()): AgentRuntime & { defaultStore: ReturnType<typeof createMemoryStore> } {
  const defaultStore = createMemoryStore();
  return { registry, owner: 'test-owner', leaseTtlMs: 30_000, store: () => defaultStore, defaultStore };
}

/** A plugin store that records what it was opened with. */
function notesPlugin() {
  const opened: StoreFactoryContext[] = [];
  const notes = (context: StoreFactoryContext) => {
    opened.push(context);
    return createMemoryStore();
  };
  return { opened, plugin: { name: 'notes-store', stores: { notes } } };
}

describe('resolveAgentStore', () => {
  it('uses the instance store without local.store, and a store object as given', () => {
    const runtime = runtimeWith();
    expect(resolveAgentStore(runtime, {})).toBe(runtime.defaultStore);
    const own = createMemoryStore();
    expect(resolveAgentStore(runtime, { local: { store: own } })).toBe(own);
  });

  it('opens a named store once per registry, with the agent\'s environment', () => {
    const { opened, plugin } = notesPlugin();
    const runtime = runtimeWith(createRegistry([plugin]));
    const first = resolveAgentStore(runtime, { local: { store: 'notes' }, env: { CAIRN_HOME: '/somewhere' } });
    expect(resolveAgentStore(runtime, { local: { store: 'notes' } })).toBe(first);
    expect(opened).toEqual([{ env: { CAIRN_HOME: '/somewhere' } }]);
    // Another registry with the same plugin opens its own.
    expect(namedStore(createRegistry([plugin]), 'notes', {})).not.toBe(first);
  });

  it('opens the built-in memory store by name', async () => {
    const runtime = runtimeWith();
    const store = resolveAgentStore(runtime, { local: { store: 'memory' } });
    expect(store).not.toBe(runtime.defaultStore);
    await store.agents.put({ agentId: 'a1', cwd: '/w', model: { id: 'm' }, mode: 'agent', createdAt: 1, updatedAt: 1, archived: false, checkpointRoot: null, lease: null });
    expect((await resolveAgentStore(runtime, { local: { store: 'memory' } }).agents.get('a1'))?.agentId).toBe('a1');
  });

  it('resolves the name in AgentOptions.registry when one is given', () => {
    const { plugin } = notesPlugin();
    const runtime = runtimeWith();
    expect(() => resolveAgentStore(runtime, { local: { store: 'notes' } })).toThrow(/no registered plugin provides/);
    expect(resolveAgentStore(runtime, { local: { store: 'notes' }, registry: createRegistry([plugin]) })).toBeDefined();
  });

  it('refuses an unknown name, listing the registered ones, and a factory that opens no store', () => {
    const runtime = runtimeWith(createRegistry([notesPlugin().plugin, { name: 'broken', stores: { broken: () => ({}) as never } }]));
    const unknown = () => resolveAgentStore(runtime, { local: { store: 'sqlite' } });
    expect(unknown).toThrow(ConfigurationError);
    expect(unknown).toThrow('local.store names the store "sqlite", which no registered plugin provides. Registered stores: notes, broken, memory.');
    expect(() => resolveAgentStore(runtime, { local: { store: 'broken' } })).toThrow(/local.store "broken" \(the store its plugin opened\)/);
  });
});
