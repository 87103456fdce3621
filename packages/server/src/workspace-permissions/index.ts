// What the interactive surfaces (the terminal UI, the server) share about approvals: the rule
// "allow always" remembers for a request, where it is remembered, and the interactive defaults.
export { type ApprovalRequest, describeRequest, isModeSwitchRule, modeSwitchRule, rememberedRuleFor } from './approval-rules.js';
export { interactivePermissionOptions } from './interactive-permissions.js';
export { permissionRulesOf, type WorkspacePermissions, workspacePermissions } from './workspace-permissions.js';
