import type { AgentOptions } from '@cairn/sdk';
import { permissionRulesOf } from './workspace-permissions.js';

/**
 * Safe by default, visibly: an interactive agent (the terminal UI, the server's chat) asks before
 * shell commands that are not read-only and before writes outside the workspace, unless a rule
 * allows them. This uses only the SDK's permission options: `defaultPermission: 'ask'` routes every
 * unmatched call that may change something to an approval, `edit(**)` (a relative glob, so never
 * outside the workspace) keeps file edits in the workspace going without a question, and
 * `approvals: 'wait'` makes the run wait for a person's answer instead of denying. Deny and ask
 * rules of every layer still win.
 */
export function interactivePermissionOptions(remembered: readonly string[]): Pick<AgentOptions, 'approvals' | 'defaultPermission' | 'permissions'> {
  return { approvals: 'wait', defaultPermission: 'ask', permissions: { allow: ['edit(**)', ...permissionRulesOf(remembered)] } };
}
