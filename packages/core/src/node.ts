// The Node entry: the agent runtime and everything that touches the file system, the OS or Node's module
// loader. The root entry (`@cairn/core`) holds the browser-safe rest, including the types of these options,
// requests and results; a name is exported by exactly one of the two entries.
// The agent runtime: agents, runs and the `Agent` / `Cairn` entry points.
export { CairnAgent } from './runtime/agent.js';
export { type AgentApi, type AgentInfo, type CairnApi, createCairn, type CreateCairnOptions } from './runtime/cairn.js';
export { Run } from './runtime/run.js';
export { acquireAgentLease, closeRun, leaseIsStale, newOwnerId } from './runtime/recovery.js';
// Model-based review of shell, MCP and fetch calls (`local.autoReview`), for hosts that build their own checker.
export { type AutoReviewCall, type AutoReviewer, type AutoReviewVerdict, createAutoReviewer } from './runtime/auto-review.js';
// Subagents: the `task` tool's pack (agents bind it to themselves) and the agent-file parser.
export { subagentsPlugin, taskTool } from './subagents/task-tool.js';
export { parseAgentFile } from './subagents/agent-files.js';
export { exploreModelVariable, type SubagentType } from './subagents/definitions.js';
// The permission engine and the shell analyser it uses (tree-sitter's grammar is found through Node's resolver).
export { createPermissionEngine, type PermissionEngine, type PermissionEngineOptions } from './permissions/permission-engine.js';
export { pathRuleMatches } from './permissions/path-rules.js';
export { analyzeShellCommand, type ShellCommandAnalysis, type ShellCommandPart } from './permissions/shell-analysis.js';
// File system paths.
export {
  canonicalizePath, canonicalWorkspaceRoot, isInsideRoot, type OpenedWorkspacePath, openWorkspacePath, type ResolvedWorkspacePath, resolveWorkspacePath, toPosix,
  type WorkspacePathOptions,
} from './node/workspace-path.js';
// Confined file I/O: every operation happens in a folder held open from the workspace root down.
export { type ChildLookup, ConfinedDirectory, ConfinementError, descriptorPathsWork } from './node/confined-directory.js';
export { type BeneathEntry, type BeneathOptions, walkBeneath } from './node/resolve-beneath.js';
export { describeFileKind, type OpenedFile, openEntryForReading } from './node/confined-file.js';
export { type AtomicReplaceOptions, checkOverwriteTarget, replaceFileAtomically } from './node/atomic-replace.js';
export { sweepStaleTemporaryFiles, temporaryFileName } from './node/temporary-files.js';
export { hardLinkReadRefusal } from './node/hard-links.js';
export { withFileLock } from './node/file-lock.js';
export { type AgentHomes, agentHomes, agentSettingsLocations, protectedPathReason, shellStartupFiles } from './node/protected-paths.js';
// What the host's tools run or obey later: shared by the file tools' protected paths and the shell sandbox.
export { codeRunningPathReason, conventionalHookFolders, editorConfigFiles, editorConfigFolders, gitHookNames } from './node/code-running-paths.js';
export {
  configuredHooksPath, enclosingRepository, type GitConfigEntry, gitCommonDir, gitFileTarget, lastGitConfigValue, parseGitConfig, type RepositoryConfig, readRepositoryConfig,
} from './node/git-config.js';
export { sensitiveFileReason } from './node/sensitive-files.js';
export { defaultIgnoredDirectories, IgnoreRules, ignoreFileNames } from './node/ignore-rules.js';
// Workspace configuration layers (rules, AGENTS.md, permissions.json) and prompt context.
export {
  type AutoRunGuidance, autoRunGuidanceOf, cairnHome, globRulesFor, loadPermissionFile, loadPermissionFileContents, loadPermissionLayers, type PermissionFileLayer, loadProjectRules, loadUserRules, loadWorkspaceConfig, mentionedRules, parseRuleFile,
  pathsMentioned, type ParsedRuleFile, type ResolvedSettingSources, resolveSettingSources, type RuleFrontMatter, type RuleKind, ruleLimits,
  type WorkspaceConfig, type WorkspaceRule,
} from './config/index.js';
export { type IndexSettings, loadIndexSettings } from './config/index.js';
export { currentUserInfo, projectLayout, renderUserInfo, renderUserQuery, type UserInfo } from './context/user-context.js';
export { estimateMessagesTokens, estimateTextTokens } from './runtime/compaction-tokens.js';
// The workspace scan of a send through the cache `workspaceScanCacheTtlMs` turns on (prewarming fills it).
export { loadWorkspaceConfigCached, projectLayoutCached, workspaceScanCacheTtl } from './runtime/workspace-scan-cache.js';
export { prewarmWorkspaceScan } from './runtime/workspace-prewarm.js';
