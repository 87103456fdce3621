export { type ParsedRuleFile, parseRuleFile, type RuleFrontMatter } from './front-matter.js';
export { type AutoRunGuidance, autoRunGuidanceOf, loadPermissionFile, loadPermissionFileContents, loadPermissionLayers, type PermissionFileLayer } from './permission-files.js';
export { type IndexSettings, loadIndexSettings } from './index-settings.js';
export { globRulesFor, mentionedRules, pathsMentioned } from './rule-matching.js';
export { loadProjectRules, loadUserRules, ruleLimits, type RuleKind, type WorkspaceRule } from './rules-loader.js';
export { type ResolvedSettingSources, resolveSettingSources, type SettingSource } from './setting-sources.js';
export { cairnHome, loadWorkspaceConfig, type WorkspaceConfig } from './workspace-config.js';
