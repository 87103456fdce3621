import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { assertAgentStore } from '../store/store-shape.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';
import { registryFor } from './agent-registry.js';

// A named store is opened once per registry: every agent (and every resume) that names it shares
// one instance, as they would share one store object passed by hand. An in-memory store opened per
// call would lose the agent between create and resume.
const opened = new WeakMap<Registry, Map<string, AgentStore>>();

/**
 * The store of a registry by name (`'sqlite'`, `'jsonl'`, `'memory'`, or a plugin's), opened on
 * first use with the agent's environment. An unknown name is a ConfigurationError listing the
 * names the registry knows.
 */
export function namedStore(registry: Registry, name: string, env: Record<string, string | undefined>, where = 'local.store'): AgentStore {
  let stores = opened.get(registry);
  const existing = stores?.get(name);
  if (existing) return existing;
  const factory = registry.store(name);
  if (!factory) {
    throw new ConfigurationError(
      `${where} names the store "${name}", which no registered plugin provides. Registered stores: ${registry.storeNames().join(', ')}. Register the store's plugin (registry.use(...)), fix the name, or pass a store object.`,
    );
  }
  const store = factory({ env });
  assertAgentStore(store, `${where} "${name}" (the store its plugin opened)`);
  if (!stores) opened.set(registry, (stores = new Map()));
  stores.set(name, store);
  return store;
}

/**
 * The store an agent is created in or resumed from: `local.store` as a store object, or as the
 * name of a store registered in the agent's registry (`AgentOptions.registry`, else the Cairn
 * instance's); without it, the instance's configured or default store.
 */
export function resolveAgentStore(runtime: AgentRuntime, options: Pick<Partial<AgentOptions>, 'local' | 'registry' | 'env'>): AgentStore {
  const chosen = options.local?.store;
  if (chosen === undefined) return runtime.store();
  if (typeof chosen === 'string') return namedStore(registryFor(runtime, options), chosen, options.env ?? globalThis.process?.env ?? {});
  return chosen;
}
