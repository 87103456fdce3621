import { createRegistry, type Registry } from '../registry/registry.js';
import { modelListItems } from '../registry/model-list.js';
import { createMemoryStore } from '../store/memory-store.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ModelListItem, ModelListOptions, ProviderSettings } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import { CairnAgent } from './agent.js';
import type { AgentOptions } from './agent-options.js';
import { type AgentRuntime, resolveLeaseTtlMs } from './agent-runtime.js';
import { type AgentCatalog, createAgentCatalog } from './agent-catalog.js';
import type { SDKAgentInfo } from './agent-info.js';
import { type CairnConfigureOptions, parseConfigureOptions } from './cairn-configure.js';
import { setWorkspaceScanCacheTtl } from './workspace-scan-cache.js';
import { newOwnerId } from './recovery.js';
import type { RunResult } from './run.js';

export interface CreateCairnOptions {
  plugins?: CairnPlugin[];
  registry?: Registry;
  /** The store used when none is configured or passed: created on first use. Default: in memory. */
  defaultStore?: () => AgentStore;
  /** How long an agent's lease lasts unless its heartbeat renews it. Default: `CAIRN_LEASE_TTL_MS`, else 30 s. */
  leaseTtlMs?: number;
}

/** @deprecated Use `SDKAgentInfo` (the same type). */
export type AgentInfo = SDKAgentInfo;

export interface AgentApi extends AgentCatalog {
  create(options: AgentOptions): Promise<CairnAgent>;
  prompt(message: string, options?: AgentOptions): Promise<RunResult>;
  resume(agentId: string, options?: Partial<AgentOptions>): Promise<CairnAgent>;
}

export interface CairnApi {
  /** Process defaults: the store, provider settings, the workspace scan cache (see CairnConfigureOptions). */
  configure(options: CairnConfigureOptions): void;
  /** The router and the catalog models of the configured providers; every id and alias listed is a valid `model.id`. */
  models: { list(options?: ModelListOptions): Promise<ModelListItem[]> };
  readonly registry: Registry;
}

/**
 * Build the `Agent` and `Cairn` entry points over one registry. `@cairn/sdk` calls this with every
 * default plugin and the SQLite store; custom agents call it with the packages they chose.
 */
export function createCairn(options: CreateCairnOptions = {}): { Agent: AgentApi; Cairn: CairnApi; registry: Registry } {
  const registry = options.registry ?? createRegistry(options.plugins ?? []);
  let configuredStore: AgentStore | null | undefined;
  let defaultStore: AgentStore | undefined;
  let providerDefaults: Record<string, ProviderSettings> | undefined;
  const runtime: AgentRuntime = {
    registry,
    owner: newOwnerId(),
    leaseTtlMs: resolveLeaseTtlMs(options.leaseTtlMs),
    store() {
      if (configuredStore) return configuredStore;
      defaultStore ??= (options.defaultStore ?? createMemoryStore)();
      return defaultStore;
    },
  };
  const withDefaults = <T extends Partial<AgentOptions>>(agentOptions: T): T =>
    providerDefaults ? { ...agentOptions, providers: { ...providerDefaults, ...(agentOptions.providers ?? {}) } } : agentOptions;

  const Agent: AgentApi = {
    create: (agentOptions) => CairnAgent.create(runtime, withDefaults(agentOptions)),
    async prompt(message, agentOptions) {
      if (!agentOptions?.local?.cwd) throw new ConfigurationError('Agent.prompt needs local.cwd: the workspace folder the agent works in.');
      const agent = await CairnAgent.create(runtime, withDefaults(agentOptions));
      try {
        const run = await agent.send(message);
        return await run.wait();
      } finally {
        await agent.close();
      }
    },
    resume: (agentId, agentOptions = {}) => CairnAgent.load(runtime, agentId, withDefaults(agentOptions)),
    ...createAgentCatalog(() => runtime.store(), registry),
  };

  const Cairn: CairnApi = {
    configure(configuration) {
      // Checked as a whole first: a bad field changes nothing.
      const change = parseConfigureOptions(configuration);
      if (change.store !== undefined) configuredStore = change.store;
      if (change.workspaceScanCacheTtlMs !== undefined) setWorkspaceScanCacheTtl(change.workspaceScanCacheTtlMs);
      if (change.providers) providerDefaults = change.providers;
    },
    models: {
      async list(listOptions = {}) {
        // Provider defaults merge as in Agent.create, so what is listed is what an agent accepts.
        return modelListItems(registry.providers(), { ...listOptions, providers: { ...(providerDefaults ?? {}), ...(listOptions.providers ?? {}) } });
      },
    },
    registry,
  };
  return { Agent, Cairn, registry };
}
