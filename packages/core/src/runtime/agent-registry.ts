import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentRuntime } from './agent-runtime.js';

/** What the agent calls on a registry; checked so a wrong object fails at create, not mid-run. */
const registryMethods = ['use', 'provider', 'providers', 'tools', 'mode', 'modes', 'store', 'storeNames', 'resolveModel', 'listModels', 'catalogEntry', 'mcp'] as const;

/**
 * The registry an agent uses for models, tools, modes and named stores: `AgentOptions.registry`
 * when given, else the one of the Cairn instance. Not stored with the agent: a resume that should
 * keep using it passes it again.
 */
export function registryFor(runtime: AgentRuntime, options: Pick<Partial<AgentOptions>, 'registry'>): Registry {
  const given = options.registry;
  if (given === undefined) return runtime.registry;
  const missing = typeof given === 'object' && given !== null ? registryMethods.filter((name) => typeof (given as unknown as Record<string, unknown>)[name] !== 'function') : registryMethods;
  if (missing.length > 0 || !Array.isArray((given as Registry).plugins)) {
    throw new ConfigurationError(
      `AgentOptions.registry is not a registry${missing.length > 0 ? ` (it lacks ${missing.join(', ')})` : ''}. Pass one made with createRegistry([...plugins]), or leave it out to use the Cairn instance's.`,
    );
  }
  return given;
}

/**
 * The runtime an agent runs with: the Cairn instance's, with the registry of `AgentOptions.registry`
 * in place of the instance's when one is given (the store, lease owner and TTL stay the instance's).
 */
export function agentRuntimeFor(runtime: AgentRuntime, options: Pick<Partial<AgentOptions>, 'registry'>): AgentRuntime {
  const registry = registryFor(runtime, options);
  return registry === runtime.registry ? runtime : { ...runtime, registry, store: () => runtime.store() };
}
