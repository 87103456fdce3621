// The browser-safe entry: the spec, the plugin registry, the run machine, model-call retries, tool and store
// helpers, prompt text and usage accounting. Nothing here may import a Node built-in, directly or through a
// dependency (test/browser-root.test.ts bundles this file for the browser and fails naming the import chain).
// The agent runtime, the permission engine and everything that reads the disk live in `@cairn/core/node`.
// Types a caller outside Node needs to talk to an agent (options, requests, results) stay here even when the
// code that implements them is Node-only; types that only describe a Node-only value move with it.
export * from './spec/index.js';
export { applyStreamPart, emptyTurn, type TurnBlock, type TurnState, turnText, turnToolCalls } from './machine/turn-state.js';
export { parseToolInput, turnToAssistantMessage } from './machine/turn-to-message.js';
export { maxInvalidToolSteps, runMachine } from './machine/run-machine.js';
export type { ApprovalRequest, RunMachineContext, RunMachineEmitted, RunMachineEvent, RunMachineInput, RunMachineOutput, RunModes, RunResumePoint } from './machine/run-machine-types.js';
export { abortableDelay, defaultRetryPolicy, type RetryPolicy, retryDelayMs } from './model-call/retry-policy.js';
export { type RetryNotice, streamWithRetry, type StreamWithRetryOptions } from './model-call/stream-with-retry.js';
export { maxRetryAfterMs, parseRetryAfterHeaders, type RetryAfterAdvice, type RetryAfterHeaders, retryAfterNote } from './model-call/retry-after.js';
export { createRegistry, type Registry, type ResolvedModel, type ResolveModelOptions } from './registry/registry.js';
export {
  type EmbeddingSetting, type EmbeddingSettingObject, isEmbeddingModel, parseEmbeddingSetting, type ResolveEmbeddingOptions, resolveEmbeddingSetting,
} from './registry/embedding-setting.js';
export type { AgentDefinition, AgentOptions, AutoReviewOptions, LocalAgentOptions, LocalOptions, McpServerConfig, SandboxOptions, SendOptions } from './runtime/agent-options.js';
export {
  type AgentHooks, type CompactionPolicy, type CompactionSettings, compactionBudget, compactionSettings, defaultCompactionRatio, defaultKeepRecentTurns, defaultLowWaterShare,
  defaultTailShare, type PreCompactEvent, type PreCompactResult,
} from './runtime/compaction.js';
export { type ApproveModeSwitch, approveStoredPlan, type ModeSwitchRequest, modeReminderText, subagentModeFor } from './runtime/mode-switch.js';
export { findModeTransition, reachableModes } from './registry/mode-transitions.js';
export type { AgentCatalog, GetAgentMessagesOptions, ListAgentsOptions, ListRunsOptions } from './runtime/agent-catalog.js';
export type { SDKAgentInfo } from './runtime/agent-info.js';
export {
  type BackgroundRunInfo, backgroundRunInfo, type ExecuteQueuedRunOptions, type GitWorkspace, type QueuedRunOutcome, type QueuedSend, type RunDispatcher,
} from './runtime/background-run.js';
export type { AgentMessage, ModelConversationMessage } from './runtime/agent-messages.js';
export type { SDKArtifact } from './runtime/agent-artifacts.js';
export type { CairnConfigureOptions } from './runtime/cairn-configure.js';
export type { LocalReadOptions } from './runtime/local-read-options.js';
export { fallbackAgentMode } from './runtime/default-modes.js';
export type { RewindReport } from './runtime/rewind.js';
export type { RunError, RunResult } from './runtime/run.js';
export { addUsage, emptyUsage, toTokenUsage } from './runtime/token-usage.js';
export { costOf } from './runtime/cost.js';
export { imageMediaTypeOfBytes } from './runtime/image-data.js';
export { buildSystemPrompt, type SystemPromptInput, systemReminder } from './context/system-prompt.js';
export { baseSystemBlocks } from './context/prompt-blocks.js';
export { calledOnOtherParts, commitCheckpointInParts, commitStepInParts, type ComposeStoreParts, stepCalledOnOtherParts, compareListKeys, composeStore, createMemoryStore, decodeListCursor, encodeListCursor, hashBlob, isBlobHash, type ListSortKey, normalizeListLimit } from './store/index.js';
export { assertAgentStore, type ComposeLocalAgentStoreParts, composeLocalAgentStore } from './store/index.js';
// The error codes every store backend reports (the conformance suite checks them): one wording for all.
export { alreadyExistsError, invalidArgumentError, notFoundError } from './store/index.js';
export { approvalMatches, checkApprovalDecision, checkApprovalFilter, checkApprovalRequests, compareApprovals, createMemoryApprovalsStore, decidedApproval } from './store/index.js';
export * from './hooks/index.js';
export { defineTool } from './tools/define-tool.js';
export { lazyImplementation } from './util/lazy-implementation.js';
export { untilAborted } from './util/until-aborted.js';
export { isJsonSchemaInput, toolInputJsonSchema } from './tools/tool-schema.js';
// Permission rules are plain data and text; evaluating them (the engine, shell analysis) needs Node.
export type { CanUseTool, CanUseToolResult, PermissionCheckRequest, PermissionLayer, PermissionRequest, PermissionResult } from './permissions/permission-engine.js';
export { commandGlobToRegExp, type ParsedPermissionRule, type PermissionDecision, type PermissionRules, parsePermissionRule, parsePermissionRules } from './permissions/permission-rules.js';
export { readOnlyPrograms } from './permissions/read-only-commands.js';
export type { SettingSource } from './config/setting-sources.js';
