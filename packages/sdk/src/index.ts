import { type AgentStore, createCairn, createRegistry } from '@cairn/core';
import { createSqliteStore } from '@cairn/store-sqlite';
import { defaultPlugins } from './default-plugins.js';

export { defaultPlugins } from './default-plugins.js';

/** The default registry: every provider, tool pack and mode of Cairn. Add your own with `registry.use(...)`. */
export const registry = createRegistry(defaultPlugins);

const cairn = createCairn({
  registry,
  // SQLite under $CAIRN_HOME (default ~/.cairn/agents.db), opened on first use.
  defaultStore: (): AgentStore => createSqliteStore(),
});

/** Create, resume, list and inspect agents. */
export const Agent = cairn.Agent;
/** Configure the default store and providers; list models of the configured providers. */
export const Cairn = cairn.Cairn;

export {
  AgentBusyError, CairnAgent, CairnError, ConfigurationError, createCairn, createMemoryStore, createRegistry, defineTool, ProviderError, Run,
  ToolError, UnsupportedRunOperationError,
} from '@cairn/core';
export type {
  AgentInfo, AgentMessage, AgentOptions, AgentUsage, CairnPlugin, ConversationTurn, CustomTool, InteractionUpdate, ModelCatalogEntry,
  ModelSelection, RunResult, SDKMessage, SendOptions, TokenUsage, ToolDefinition, UserMessage,
} from '@cairn/core';
export { createSqliteStore } from '@cairn/store-sqlite';
export { createJsonlStore } from '@cairn/store-jsonl';
export { createIndex } from '@cairn/indexer';
export { createAgentPlatform } from './agent-platform.js';
