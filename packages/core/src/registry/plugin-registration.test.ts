import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ProviderV1 } from '../spec/provider/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { createMemoryStore } from '../store/memory-store.js';
import { fallbackAgentMode } from './fallbacks.js';
import { createRegistry } from './registry.js';

const provider = (id: string, label = id): ProviderV1 & { label: string } => ({
  specificationVersion: 'v1',
  id,
  label,
  languageModel: (modelId) => ({ specificationVersion: 'v1', provider: id, modelId, doStream: async () => ({ stream: (async function* () {})() }) }),
});
const mode = (id: string, description = `The ${id} mode.`): ModeDefinition => ({
  id, description, promptBlocks: [], toolPolicy: { readOnly: true, mcp: 'none' }, sandboxProfile: 'read-only', transitionsTo: [],
});
const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  id: name, name, description: name, inputSchema: { jsonSchema: { type: 'object' } }, readOnly: true, category: 'custom', execute: () => 'ok', ...extra,
});
const store = () => createMemoryStore();

describe('registry: one id, one plugin', () => {
  it.each([
    ['provider', { providers: [provider('acme')] }, { providers: [provider('acme', 'second')] }],
    ['mode', { modes: [mode('review')] }, { modes: [mode('review', 'Another review.')] }],
    ['store', { stores: { shared: store } }, { stores: { shared: () => createMemoryStore() } }],
    ['tool', { tools: [tool('line_count')] }, { tools: [tool('line_count')] }],
  ] satisfies Array<[string, Omit<CairnPlugin, 'name'>, Omit<CairnPlugin, 'name'>]>)('a second %s with a registered id throws, naming both plugins and the fix', (kind, first, second) => {
    const registry = createRegistry([{ name: 'first-pack', ...first }]);
    const use = () => registry.use({ name: 'second-pack', ...second });
    expect(use).toThrow(ConfigurationError);
    expect(use).toThrow(new RegExp(`Plugin "second-pack" registers ${kind} "\\w+", which plugin "first-pack" already registered`));
    expect(use).toThrow(/add replaces: \{ \w+: \['\w+'\] \} to it and register it after "first-pack"/);
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual(['first-pack']);
  });

  it('lets a later plugin take an id over when it declares replaces; the replacement keeps its place in the lists', () => {
    const registry = createRegistry([{ name: 'base', providers: [provider('acme'), provider('beta')], modes: [mode('review'), mode('notes')], tools: [tool('a'), tool('b')], stores: { shared: store } }]);
    const newStore = () => createMemoryStore();
    registry.use({
      name: 'better',
      providers: [provider('acme', 'better')],
      modes: [mode('review', 'A stricter review.')],
      tools: [tool('a', { description: 'better a' })],
      stores: { shared: newStore },
      replaces: { providers: ['acme'], modes: ['review'], tools: ['a'], stores: ['shared'] },
    });
    expect((registry.provider('acme') as ProviderV1 & { label: string }).label).toBe('better');
    expect(registry.providers().map((entry) => entry.id)).toEqual(['acme', 'beta']);
    expect(registry.mode('review')?.description).toBe('A stricter review.');
    expect(registry.modes().map((entry) => entry.id)).toEqual(['agent', 'review', 'notes']);
    expect(registry.tools().map((entry) => entry.description)).toEqual(['better a', 'b']);
    expect(registry.store('shared')).toBe(newStore);
  });

  it('refuses a replaces entry that replaces nothing, or names what the plugin does not register', () => {
    const registry = createRegistry([{ name: 'base', modes: [mode('review')] }]);
    expect(() => registry.use({ name: 'typo', modes: [mode('reveiw')], replaces: { modes: ['reveiw'] } })).toThrow(
      /Plugin "typo" declares replaces.modes "reveiw", but no plugin registered mode "reveiw" before it \(registered: review\)/,
    );
    expect(() => registry.use({ name: 'remover', modes: [mode('other')], replaces: { modes: ['review'] } })).toThrow(/declares replaces.modes "review" but registers no mode "review"/);
    expect(() => registry.use({ name: 'odd', replaces: { model: ['x'] } as never })).toThrow(/replaces does not know "model"; it takes providers, modes, stores, tools/);
    expect(() => registry.use({ name: 'odd', replaces: { modes: 'review' } as never })).toThrow(/replaces.modes must be an array of ids/);
    expect(registry.modes().map((entry) => entry.id)).toEqual(['agent', 'review']);
  });

  it('treats the very same plugin, or the very same definition, registered again as a no-op', () => {
    const review = mode('review');
    const plugin: CairnPlugin = { name: 'pack', modes: [review], tools: [tool('x')] };
    const registry = createRegistry([plugin, plugin]);
    registry.use(plugin);
    expect(registry.plugins).toEqual([plugin]);
    // A plugin that re-lists a registered mode object (createModesPlugin does) next to its own.
    registry.use({ name: 'more-modes', modes: [review, mode('extra')] });
    expect(registry.modes().map((entry) => entry.id)).toEqual(['agent', 'review', 'extra']);
  });

  it('refuses an id twice inside one plugin, and changes nothing when a plugin fails', () => {
    const registry = createRegistry();
    expect(() => registry.use({ name: 'twice', modes: [mode('review'), mode('review', 'Again.')] })).toThrow(/Plugin "twice" registers mode "review" twice/);
    registry.use({ name: 'base', tools: [tool('x')] });
    // The provider and mode come before the clashing tool: none of them is registered.
    expect(() => registry.use({ name: 'half', providers: [provider('acme')], modes: [mode('review')], tools: [tool('x')] })).toThrow(/already registered/);
    expect(registry.provider('acme')).toBeUndefined();
    expect(registry.mode('review')).toBeUndefined();
    expect(registry.plugins.map((plugin) => plugin.name)).toEqual(['base']);
  });

  it('checks the shape of what a plugin contributes', () => {
    const registry = createRegistry();
    expect(() => registry.use({ name: '', modes: [] })).toThrow(/needs a plugin object with a name/);
    expect(() => registry.use({ name: 'p', providers: [{ id: '' } as never] })).toThrow(/every provider needs an "id"/);
    expect(() => registry.use({ name: 'p', stores: { sqlite: 'file.db' as never } })).toThrow(/store "sqlite" must be a function/);
    expect(() => registry.use({ name: 'p', tools: [tool('t', { readOnly: undefined as never })] })).toThrow(/Tool "t" from plugin "p": "readOnly" must be true/);
  });

  it('refuses a tool whose readOnlyHint contradicts readOnly: readOnly is the one flag modes read', () => {
    const registry = createRegistry();
    expect(() => registry.use({ name: 'mcp-ish', tools: [tool('deploy', { readOnly: false, readOnlyHint: true })] })).toThrow(
      /Tool "deploy" from plugin "mcp-ish" says readOnly: false but readOnlyHint: true\. Modes read readOnly alone/,
    );
    registry.use({ name: 'consistent', tools: [tool('search', { readOnly: true, readOnlyHint: true })] });
    expect(registry.tools().map((entry) => entry.name)).toEqual(['search']);
  });
});

describe('registry fallbacks', () => {
  it('answers agent with the fallback mode, and lists it, until a plugin registers an agent mode', () => {
    const registry = createRegistry([{ name: 'review', modes: [mode('review')] }]);
    expect(registry.mode('agent')).toBe(fallbackAgentMode);
    expect(registry.mode('plan')).toBeUndefined();
    expect(registry.modes().map((entry) => entry.id)).toEqual(['agent', 'review']);
    // Registering an agent mode is not a duplicate of the fallback: no replaces needed.
    const agent = { ...mode('agent', 'My agent.'), toolPolicy: { readOnly: false, mcp: 'all' as const } };
    registry.use({ name: 'my-agent', modes: [agent] });
    expect(registry.mode('agent')).toBe(agent);
    expect(registry.modes().map((entry) => entry.id)).toEqual(['review', 'agent']);
  });

  it('opens the memory store by name, and lets a plugin register its own under that name', () => {
    const registry = createRegistry([{ name: 'files', stores: { notes: store } }]);
    expect(registry.storeNames()).toEqual(['notes', 'memory']);
    const memory = registry.store('memory')?.({ env: {} });
    expect(memory?.shared).toBe(false);
    expect(registry.store('sqlite')).toBeUndefined();
    const own = () => createMemoryStore();
    registry.use({ name: 'own-memory', stores: { memory: own } });
    expect(registry.store('memory')).toBe(own);
    expect(registry.storeNames()).toEqual(['notes', 'memory']);
  });
});
