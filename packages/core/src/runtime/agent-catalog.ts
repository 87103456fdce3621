import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentUsage } from '../spec/events/v1/index.js';
import type { AgentRecord, AgentStore, ListResult } from '../spec/store/v1/index.js';
import { type SDKAgentInfo, toAgentInfo } from './agent-info.js';
import { type AgentMessage, listAgentMessages, listModelMessages, type ModelConversationMessage } from './agent-messages.js';
import { agentUsage, usageOfRun } from './cost.js';
import { assertAgentInCwd, canonicalCwd, type LocalReadOptions, localReadStore } from './local-read-options.js';
import { Run } from './run.js';

export interface ListAgentsOptions extends LocalReadOptions {
  limit?: number;
  cursor?: string;
  /** Cairn: list archived agents too (hidden by default). */
  includeArchived?: boolean;
}

export interface ListRunsOptions extends LocalReadOptions {
  limit?: number;
  cursor?: string;
}

export interface GetAgentMessagesOptions extends LocalReadOptions {
  limit?: number;
  offset?: number;
}

/** The reads and lifecycle operations on stored agents: `Agent.list`, `Agent.get`, ... */
export interface AgentCatalog {
  list(options?: ListAgentsOptions): Promise<ListResult<SDKAgentInfo>>;
  get(agentId: string, options?: LocalReadOptions): Promise<SDKAgentInfo>;
  listRuns(agentId: string, options?: ListRunsOptions): Promise<ListResult<Run>>;
  getRun(runId: string, options?: LocalReadOptions): Promise<Run>;
  cancelRun(runId: string, options?: LocalReadOptions): Promise<void>;
  messages: {
    /** The stored user and assistant messages, as text. */
    list(agentId: string, options?: GetAgentMessagesOptions): Promise<AgentMessage[]>;
    /** Cairn: the stored model conversation, every role (tool results too) and every part. */
    listModelMessages(agentId: string, options?: GetAgentMessagesOptions): Promise<ModelConversationMessage[]>;
  };
  getUsage(agentId: string, options?: { runId?: string } & LocalReadOptions): Promise<AgentUsage>;
  /** Hide the agent from `Agent.list` (its transcript stays readable). */
  archive(agentId: string, options?: LocalReadOptions): Promise<void>;
  unarchive(agentId: string, options?: LocalReadOptions): Promise<void>;
  /** Remove the agent's row: later reads of it fail. */
  delete(agentId: string, options?: LocalReadOptions): Promise<void>;
}

/** The catalog over the store a call names, else `defaultStore()` (the configured or default store). */
export function createAgentCatalog(defaultStore: () => AgentStore, registry: Registry): AgentCatalog {
  const storeFor = (options: object | undefined, where: string, ownKeys: readonly string[] = []) => localReadStore(options, where, ownKeys, defaultStore);

  /** The agent's row, checked against the caller's cwd when one was given. */
  const agentRecord = async (store: AgentStore, agentId: string, cwd: string | undefined, where: string): Promise<AgentRecord> => {
    const record = await store.agents.get(agentId);
    if (!record) throw new ConfigurationError(`No agent ${agentId} in the store. List agents with Agent.list().`);
    await assertAgentInCwd(record, cwd, where);
    return record;
  };

  const catalog: AgentCatalog = {
    async list(options = {}) {
      const store = storeFor(options, 'Agent.list', ['limit', 'cursor', 'includeArchived']);
      const page = await store.agents.list({
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
        ...(options.includeArchived !== undefined ? { includeArchived: options.includeArchived } : {}),
        // Agents record the real path of their workspace: `./repo` and a symlink to it list the same agents.
        ...(options.cwd !== undefined ? { cwd: await canonicalCwd(options.cwd) } : {}),
      });
      const now = Date.now();
      const items = await Promise.all(page.items.map((record) => toAgentInfo(store, record, now)));
      return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
    async get(agentId, options) {
      const store = storeFor(options, 'Agent.get');
      return toAgentInfo(store, await agentRecord(store, agentId, options?.cwd, 'Agent.get'));
    },
    async listRuns(agentId, options = {}) {
      const store = storeFor(options, 'Agent.listRuns', ['limit', 'cursor']);
      if (options.cwd !== undefined) await agentRecord(store, agentId, options.cwd, 'Agent.listRuns');
      const page = await store.runs.list(agentId, {
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      });
      return { items: page.items.map((record) => new Run(store, record)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    },
    async getRun(runId, options) {
      const store = storeFor(options, 'Agent.getRun');
      const record = await store.runs.get(runId);
      if (!record) throw new ConfigurationError(`No run ${runId} in the store.`);
      if (options?.cwd !== undefined) await agentRecord(store, record.agentId, options.cwd, 'Agent.getRun');
      return new Run(store, record);
    },
    async cancelRun(runId, options) {
      await (await catalog.getRun(runId, options)).cancel();
    },
    messages: {
      async list(agentId, options = {}) {
        const store = storeFor(options, 'Agent.messages.list', ['limit', 'offset']);
        if (options.cwd !== undefined) await agentRecord(store, agentId, options.cwd, 'Agent.messages.list');
        return listAgentMessages(store, agentId, pageOf(options));
      },
      async listModelMessages(agentId, options = {}) {
        const store = storeFor(options, 'Agent.messages.listModelMessages', ['limit', 'offset']);
        if (options.cwd !== undefined) await agentRecord(store, agentId, options.cwd, 'Agent.messages.listModelMessages');
        return listModelMessages(store, agentId, pageOf(options));
      },
    },
    async getUsage(agentId, options = {}) {
      const store = storeFor(options, 'Agent.getUsage', ['runId']);
      if (options.cwd !== undefined) await agentRecord(store, agentId, options.cwd, 'Agent.getUsage');
      const usage = await agentUsage(store, registry, agentId);
      return options.runId === undefined ? usage : usageOfRun(usage, agentId, options.runId);
    },
    async archive(agentId, options) {
      const store = storeFor(options, 'Agent.archive');
      await agentRecord(store, agentId, options?.cwd, 'Agent.archive');
      await store.agents.update(agentId, { archived: true, updatedAt: Date.now() });
    },
    async unarchive(agentId, options) {
      const store = storeFor(options, 'Agent.unarchive');
      await agentRecord(store, agentId, options?.cwd, 'Agent.unarchive');
      await store.agents.update(agentId, { archived: false, updatedAt: Date.now() });
    },
    async delete(agentId, options) {
      const store = storeFor(options, 'Agent.delete');
      if (options?.cwd !== undefined) await agentRecord(store, agentId, options.cwd, 'Agent.delete');
      await store.agents.delete(agentId);
    },
  };
  return catalog;
}

function pageOf(options: GetAgentMessagesOptions): { limit?: number; offset?: number } {
  return { ...(options.limit !== undefined ? { limit: options.limit } : {}), ...(options.offset !== undefined ? { offset: options.offset } : {}) };
}
