import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import type { PermissionVerdict } from './tool-runner.js';
import type { CanUseTool } from '../permissions/index.js';
import { toolAvailability } from './tool-set.js';

/**
 * `context.checkShellCommand` for one call: a tool that runs a program from the workspace gets the
 * answer a shell call with the same command would get, so nothing runs workspace code where the
 * shell may not. The shell must be offered (`disallowedTools`, the `tools` allow-list and the mode's
 * shell policy), and the permission engine must allow the command (deny rules, `ask` through
 * canUseTool; headless: deny). The read-only modes' command filter is not applied: like the shell,
 * the program then runs in the read-only sandbox (`context.sandbox`), which is the boundary there.
 * Without a registered shell tool nothing may run: there is no shell whose rules it could follow.
 */
export function shellCommandCheck(input: {
  tools: ToolDefinition[];
  allow?: ToolName[];
  deny?: ToolName[];
  mode: ModeDefinition;
  cwd: string;
  settings: Record<string, unknown>;
  checkPermission(tool: ToolDefinition, input: unknown, paths: string[], mode: string): Promise<PermissionVerdict>;
  /** The agent's `canUseTool`: a tool cannot pause the run mid-call, but it can ask the callback. */
  canUseTool?: CanUseTool;
}): (command: string) => Promise<{ decision: 'allow' | 'deny'; reason: string }> {
  return async (command) => {
    const shell = input.tools.find((tool) => tool.category === 'shell');
    if (!shell) return { decision: 'deny', reason: 'this agent has no shell tool, so no tool may run programs from the workspace' };
    const [availability] = toolAvailability([shell], { allow: input.allow, deny: input.deny, mode: input.mode, cwd: input.cwd, settings: input.settings });
    if (!availability?.offered) return { decision: 'deny', reason: `the shell (${shell.name}) is not available: ${availability?.reason ?? 'it is not offered'}` };
    const verdict = await input.checkPermission(shell, { command }, [], input.mode.id);
    if (verdict.decision !== 'ask') return { decision: verdict.decision, reason: verdict.reason };
    // A tool cannot move the run to awaitingApproval mid-call: the callback answers, or it is refused.
    if (!input.canUseTool || !verdict.request) return { decision: 'deny', reason: `${verdict.reason}; it needs approval, which a tool cannot wait for mid-call (run it through the shell tool instead)` };
    const answer = await input.canUseTool(verdict.request);
    const behavior = typeof answer === 'string' ? answer : answer.behavior;
    const message = typeof answer === 'string' ? undefined : answer.message;
    return behavior === 'allow' ? { decision: 'allow', reason: message ?? `${verdict.reason}; approved by canUseTool` } : { decision: 'deny', reason: message ?? `${verdict.reason}; refused by canUseTool` };
  };
}
