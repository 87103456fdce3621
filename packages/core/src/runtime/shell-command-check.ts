import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ToolDefinition, ToolName } from '../spec/tool/v1/index.js';
import type { PermissionVerdict } from './tool-runner.js';
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
}): (command: string) => Promise<PermissionVerdict> {
  return async (command) => {
    const shell = input.tools.find((tool) => tool.category === 'shell');
    if (!shell) return { decision: 'deny', reason: 'this agent has no shell tool, so no tool may run programs from the workspace' };
    const [availability] = toolAvailability([shell], { allow: input.allow, deny: input.deny, mode: input.mode, cwd: input.cwd, settings: input.settings });
    if (!availability?.offered) return { decision: 'deny', reason: `the shell (${shell.name}) is not available: ${availability?.reason ?? 'it is not offered'}` };
    return input.checkPermission(shell, { command }, [], input.mode.id);
  };
}
