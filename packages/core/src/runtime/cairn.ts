import { createRegistry, type Registry } from '../registry/registry.js';
import { createMemoryStore } from '../store/memory-store.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentUsage } from '../spec/events/v1/index.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ModelCatalogEntry, ProviderSettings } from '../spec/provider/v1/index.js';
import type { AgentRecord, AgentStore, ListResult } from '../spec/store/v1/index.js';
import { CairnAgent } from './agent.js';
import type { AgentOptions } from './agent-options.js';
import { type AgentRuntime, resolveLeaseTtlMs } from './agent-runtime.js';
import { loadConversation } from './conversation-checkpoint.js';
import { repairConversation } from './conversation-repair.js';
import { agentUsage } from './cost.js';
import { newOwnerId } from './recovery.js';
import { Run, type RunResult } from './run.js';

export interface CreateCairnOptions {
  plugins?: CairnPlugin[];
  registry?: Registry;
  /** The store used when none is configured or passed: created on first use. Default: in memory. */
  defaultStore?: () => AgentStore;
  /** How long an agent's lease lasts unless its heartbeat renews it. Default: `CAIRN_LEASE_TTL_MS`, else 30 s. */
  leaseTtlMs?: number;
}

export type AgentInfo = AgentRecord;

export interface AgentMessage {
  index: number;
  role: ModelMessage['role'];
  content: ModelMessage['content'];
}

interface StoreOption {
  store?: AgentStore;
}

export interface AgentApi {
  create(options: AgentOptions): Promise<CairnAgent>;
  prompt(message: string, options?: AgentOptions): Promise<RunResult>;
  resume(agentId: string, options?: Partial<AgentOptions>): Promise<CairnAgent>;
  list(options?: { limit?: number; cursor?: string; cwd?: string; includeArchived?: boolean } & StoreOption): Promise<ListResult<AgentInfo>>;
  get(agentId: string, options?: StoreOption): Promise<AgentInfo>;
  listRuns(agentId: string, options?: { limit?: number; cursor?: string } & StoreOption): Promise<ListResult<Run>>;
  getRun(runId: string, options?: StoreOption): Promise<Run>;
  cancelRun(runId: string, options?: StoreOption): Promise<void>;
  messages: { list(agentId: string, options?: { limit?: number; offset?: number } & StoreOption): Promise<AgentMessage[]> };
  getUsage(agentId: string, options?: { runId?: string } & StoreOption): Promise<AgentUsage>;
  archive(agentId: string, options?: StoreOption): Promise<void>;
  unarchive(agentId: string, options?: StoreOption): Promise<void>;
  delete(agentId: string, options?: StoreOption): Promise<void>;
}

export interface CairnApi {
  configure(options: { local?: { store?: AgentStore | null }; providers?: Record<string, ProviderSettings> }): void;
  models: { list(options?: { providers?: Record<string, ProviderSettings> }): Promise<ModelCatalogEntry[]> };
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
  const storeOf = (option?: StoreOption) => option?.store ?? runtime.store();
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
    async list(listOptions = {}) {
      const { store, ...rest } = listOptions;
      return storeOf({ ...(store ? { store } : {}) }).agents.list(rest);
    },
    async get(agentId, getOptions) {
      const record = await storeOf(getOptions).agents.get(agentId);
      if (!record) throw new ConfigurationError(`No agent ${agentId} in the store.`);
      return record;
    },
    async listRuns(agentId, listOptions = {}) {
      const store = storeOf(listOptions);
      const page = await store.runs.list(agentId, { ...(listOptions.limit ? { limit: listOptions.limit } : {}), ...(listOptions.cursor ? { cursor: listOptions.cursor } : {}) });
      return { items: page.items.map((record) => new Run(store, record)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
    async getRun(runId, getOptions) {
      const store = storeOf(getOptions);
      const record = await store.runs.get(runId);
      if (!record) throw new ConfigurationError(`No run ${runId} in the store.`);
      return new Run(store, record);
    },
    async cancelRun(runId, cancelOptions) {
      const run = await Agent.getRun(runId, cancelOptions);
      await run.cancel();
    },
    messages: {
      async list(agentId, listOptions = {}) {
        const store = storeOf(listOptions);
        const record = await store.agents.get(agentId);
        if (!record) throw new ConfigurationError(`No agent ${agentId} in the store.`);
        const { messages } = repairConversation((await loadConversation(store.checkpoints, record.checkpointRoot)).messages);
        const offset = listOptions.offset ?? 0;
        const slice = messages.slice(offset, listOptions.limit === undefined ? undefined : offset + listOptions.limit);
        return slice.map((message, index) => ({ index: offset + index, role: message.role, content: message.content }));
      },
    },
    async getUsage(agentId, usageOptions = {}) {
      const usage = await agentUsage(storeOf(usageOptions), registry, agentId);
      if (!usageOptions.runId) return usage;
      const runs = usage.runs.filter((run) => run.runId === usageOptions.runId);
      const run = runs[0];
      return { usage: run?.usage ?? usage.usage, cost: run?.cost ?? { rawCostCents: 0, chargedCents: 0 }, runs };
    },
    async archive(agentId, archiveOptions) {
      await storeOf(archiveOptions).agents.update(agentId, { archived: true, updatedAt: Date.now() });
    },
    async unarchive(agentId, archiveOptions) {
      await storeOf(archiveOptions).agents.update(agentId, { archived: false, updatedAt: Date.now() });
    },
    async delete(agentId, deleteOptions) {
      await storeOf(deleteOptions).agents.delete(agentId);
    },
  };

  const Cairn: CairnApi = {
    configure(configuration) {
      if (configuration.local && 'store' in configuration.local) configuredStore = configuration.local.store;
      if (configuration.providers) providerDefaults = configuration.providers;
    },
    models: {
      async list(listOptions = {}) {
        return registry.listModels({ providers: listOptions.providers ?? providerDefaults ?? {} });
      },
    },
    registry,
  };
  return { Agent, Cairn, registry };
}
