export {
  type CanUseTool,
  type CanUseToolResult,
  createPermissionEngine,
  type PermissionCheckRequest,
  type PermissionEngine,
  type PermissionEngineOptions,
  type PermissionLayer,
  type PermissionRequest,
  type PermissionResult,
} from './permission-engine.js';
export {
  commandGlobToRegExp,
  type ParsedPermissionRule,
  type PermissionDecision,
  type PermissionRules,
  parsePermissionRule,
  parsePermissionRules,
} from './permission-rules.js';
export { pathRuleMatches } from './path-rules.js';
export { readOnlyPrograms } from './read-only-commands.js';
export { analyzeShellCommand, type ShellCommandAnalysis, type ShellCommandPart } from './shell-analysis.js';
