// Node-only helpers (file system paths). Kept out of the root entry so browser bundles never import them.
export { canonicalizePath, canonicalWorkspaceRoot, isInsideRoot, type ResolvedWorkspacePath, resolveWorkspacePath, toPosix } from './node/workspace-path.js';
export { protectedPathReason } from './node/protected-paths.js';
export { defaultIgnoredDirectories, IgnoreRules, ignoreFileNames } from './node/ignore-rules.js';
// Workspace configuration layers (rules, AGENTS.md, permissions.json) and prompt context.
export {
  cairnHome, globRulesFor, loadPermissionFile, loadPermissionLayers, loadProjectRules, loadUserRules, loadWorkspaceConfig, mentionedRules, parseRuleFile,
  pathsMentioned, type ParsedRuleFile, type ResolvedSettingSources, resolveSettingSources, type RuleFrontMatter, type RuleKind, ruleLimits, type SettingSource,
  type WorkspaceConfig, type WorkspaceRule,
} from './config/index.js';
export { currentUserInfo, projectLayout, renderUserInfo, renderUserQuery, type UserInfo } from './context/user-context.js';
export { estimateMessagesTokens, estimateTextTokens } from './runtime/compaction-tokens.js';
// The workspace scan of a send through the cache `workspaceScanCacheTtlMs` turns on (prewarming fills it).
export { loadWorkspaceConfigCached, projectLayoutCached, workspaceScanCacheTtl } from './runtime/workspace-scan-cache.js';
export { prewarmWorkspaceScan } from './runtime/workspace-prewarm.js';
