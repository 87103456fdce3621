import { isAbsolute, resolve } from 'node:path';
import type { InteractionUpdate } from '@cairn/sdk';

/** What an `approval-requested` update carries. */
export type ApprovalRequest = Omit<Extract<InteractionUpdate, { type: 'approval-requested' }>, 'type'>;

/** The file tools whose calls an `edit(path)` rule covers (docs/permissions-and-sandbox.md). */
const fileTools = new Set(['write', 'search_replace', 'edit_file', 'delete_file', 'edit_notebook']);

/**
 * What "allow always" remembers for a request: a permission rule for a tool call (`shell(npm test)`,
 * `edit(/abs/path)`, the tool's name), `mode-switch(plan->agent)` for a mode switch. Undefined when
 * no exact rule can be written (a command with glob or rule syntax in it would widen to other
 * commands): such a call can only be allowed once.
 */
export function rememberedRuleFor(request: ApprovalRequest, cwd: string): string | undefined {
  if (request.kind !== 'tool') {
    const change = request.modeSwitch;
    return change ? modeSwitchRule(change.from, change.to) : undefined;
  }
  const args = (typeof request.args === 'object' && request.args !== null ? request.args : {}) as Record<string, unknown>;
  if (request.toolName === 'run_terminal_cmd') {
    const command = typeof args.command === 'string' ? args.command.trim() : '';
    if (!command || /[*()\n]/.test(command)) return undefined;
    return `shell(${command})`;
  }
  if (request.toolName && fileTools.has(request.toolName)) {
    const path = typeof args.path === 'string' ? args.path : typeof args.target_file === 'string' ? args.target_file : undefined;
    if (!path || /[*?[\]{}()]/.test(path)) return undefined;
    return `edit(${isAbsolute(path) ? path : resolve(cwd, path)})`;
  }
  return request.toolName && /^[\w.-]+$/.test(request.toolName) ? request.toolName : undefined;
}

export const modeSwitchRule = (from: string, to: string) => `mode-switch(${from}->${to})`;
export const isModeSwitchRule = (rule: string) => rule.startsWith('mode-switch(');

/** One line saying what the run wants to do, for the approval prompt. */
export function describeRequest(request: ApprovalRequest): string {
  if (request.kind !== 'tool') {
    const change = request.modeSwitch;
    const what = change ? `switch from ${change.from} to ${change.to} mode` : 'switch mode';
    return `${what}${change?.explanation ? `: ${change.explanation}` : ''}`;
  }
  const args = (typeof request.args === 'object' && request.args !== null ? request.args : {}) as Record<string, unknown>;
  if (request.toolName === 'run_terminal_cmd' && typeof args.command === 'string') return `run: ${args.command}`;
  const path = typeof args.path === 'string' ? args.path : undefined;
  return `${request.toolName ?? 'a tool'}${path ? ` ${path}` : ''}`;
}
