import type { CodebaseIndex, CreateIndexOptions } from '@cairn/indexer';
import { type CairnAgent, createCairn } from '@cairn/core/node';
import { defaultLocalStore } from './default-store.js';
import { registry } from './registry.js';

export { defaultPlugins } from './default-plugins.js';
export { defaultLocalStore } from './default-store.js';

export { registry } from './registry.js';
export { type EmbeddingSetting, type ResolveEmbeddingOptions, resolveEmbeddingModel } from './embedding-model.js';

const cairn = createCairn({
  registry,
  // SQLite under $CAIRN_HOME (default ~/.cairn/agents.db), else JSONL; opened on first use.
  defaultStore: defaultLocalStore,
});

/** The handle `Agent.create` and `Agent.resume` return, under the reference SDK's name. */
export type SDKAgent = CairnAgent;

/** Create, resume, list and inspect agents. */
export const Agent = cairn.Agent;
/** Configure the default store and providers; list models of the configured providers. */
export const Cairn = cairn.Cairn;

export {
  AgentBusyError, backgroundRunInfo, CairnAgentError, CairnError, CairnSdkError, ConfigurationError, createMemoryStore, createRegistry, defineTool, LeaseLostError,
  ProviderError, ToolError, UnsupportedRunOperationError,
} from '@cairn/core';
export type { ExecuteQueuedRunOptions, GitWorkspace, QueuedRunOutcome, RunDispatcher, RunGitInfo } from '@cairn/core';
export { CairnAgent, createCairn, Run } from '@cairn/core/node';
// Runs, stream messages, interaction updates and the conversation, under the reference SDK's names.
export type {
  AgentConversationTurn, AgentDefinition, AssistantMessage, ConversationStep, InteractionUpdate, McpServerConfig, ModeChangedUpdate, NestedTaskUpdate,
  PartialToolCallUpdate, PlanCreatedUpdate, RetryUpdate, RunError, RunOperation, RunStatus, RunUsage, SDKAssistantMessage, SDKMessage,
  SDKRequestMessage, SDKStatus, SDKStatusMessage, SDKStatusPhase, SDKSystemMessage, SDKTaskMessage, SDKThinkingMessage, SDKToolUseMessage,
  SDKUsageMessage, SDKUserMessageEvent, SensitiveFileChangedUpdate, SettingSource, ShellCommand, ShellConversationTurn, ShellOutput, ShellOutputDeltaUpdate, StepCompletedUpdate,
  StepStartedUpdate, SummaryCompletedUpdate, SummaryStartedUpdate, SummaryUpdate, TextBlock, TextDeltaUpdate, ThinkingCompletedUpdate,
  ThinkingDeltaUpdate, ThinkingMessage, TodosUpdatedUpdate, TokenDeltaUpdate, ToolCall, ToolCallCompletedUpdate, ToolCallDeltaUpdate,
  ToolCallStartedUpdate, ToolUseBlock, TurnEndedUpdate, UsageCost, UserMessageAppendedUpdate,
} from '@cairn/core';
export type {
  AgentMessage, AgentOptions, AgentUsage, CairnPlugin, ConversationTurn, CustomTool, LocalAgentOptions, LocalOptions, ModelCatalogEntry, ModelSelection, RunResult,
  SendOptions, TokenUsage, ToolDefinition, UserMessage,
} from '@cairn/core';
export type { AgentInfo } from '@cairn/core/node';
// Custom tools and images, under the reference SDK's documented names.
export type {
  SDKCustomTool, SDKCustomToolContent, SDKCustomToolContext, SDKCustomToolResult, SDKImage, SDKImageDimension, SDKJsonValue, SDKUserMessage,
} from '@cairn/core';
// The model catalog, as Cairn.models.list() returns it.
export type {
  CatalogParameterDefinition, ModelListItem, ModelListOptions, ModelParameterDefinition, ModelParameterValue, ModelVariant, SDKModel,
} from '@cairn/core';
export { createSqliteStore, SqliteLocalAgentStore } from '@cairn/store-sqlite';
export { createJsonlStore, JsonlLocalAgentStore } from '@cairn/store-jsonl';
// Local agent stores, inspection and lifecycle, by the reference SDK's names.
export { composeLocalAgentStore } from '@cairn/core';
export type {
  CairnConfigureOptions, ComposeLocalAgentStoreParts, GetAgentMessagesOptions, ListAgentsOptions, ListResult, ListRunsOptions, LocalAgentDocument,
  LocalAgentRunDocument, LocalAgentStore, LocalAgentStoreAgents, LocalAgentStoreCheckpoints, LocalAgentStoreRunEvents, LocalAgentStoreRuns,
  LocalReadOptions, ModelConversationMessage, SDKAgentInfo, SDKArtifact,
} from '@cairn/core';
/** Open a workspace's code index (`@cairn/indexer`), loaded on first use so importing the SDK stays light. */
export async function createIndex(options: CreateIndexOptions): Promise<CodebaseIndex> {
  return (await import('@cairn/indexer')).createIndex(options);
}
export type { CodebaseIndex, CreateIndexOptions } from '@cairn/indexer';
export { type AgentPlatform, createAgentPlatform, type PrewarmRelease } from './agent-platform.js';
