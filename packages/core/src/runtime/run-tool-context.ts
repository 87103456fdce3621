import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { SandboxRequirement, ToolDefinition, ToolExecutionContext } from '../spec/tool/v1/index.js';
import { taskHostEntry } from '../subagents/task-host.js';
import type { RunScope } from './run-scope.js';
import { workspaceRelative } from './rules-reminders.js';
import { sensitiveFileChangeUpdate } from './sensitive-file-flag.js';
import { shellCommandCheck } from './shell-command-check.js';

/** What one tool call gets to work with: the workspace, the run's state, its sandbox and permission checks. */
export function toolExecutionContext(scope: RunScope, call: { toolCallId: string; signal: AbortSignal; mode: ModeDefinition; sandbox: SandboxRequirement; tool?: ToolDefinition }): ToolExecutionContext {
  const { plan } = scope;
  const { toolCallId } = call;
  return {
    toolCallId,
    agentId: plan.agentId,
    runId: plan.runId,
    cwd: plan.cwd,
    mode: call.mode.id,
    signal: call.signal,
    emit: scope.publisher.emitFromTool,
    state: {
      get: <T>(key: string) => plan.state[key] as T | undefined,
      set: (key, value) => {
        plan.state[key] = value;
      },
    },
    recordFileChange: (change) => {
      scope.editedPaths.add(workspaceRelative(plan.cwd, change.path));
      if (plan.editFeedback) scope.changesOfCall.set(toolCallId, [...(scope.changesOfCall.get(toolCallId) ?? []), change]);
      const sensitive = sensitiveFileChangeUpdate(plan.cwd, change, toolCallId);
      if (sensitive) scope.publisher.emitFromTool(sensitive);
      return plan.onFileChange(change, toolCallId);
    },
    sandbox: call.sandbox,
    isPathDenied: plan.isPathDenied,
    ...(plan.readDeniedFiles ? { readDeniedFiles: plan.readDeniedFiles } : {}),
    checkShellCommand: shellCommandCheck({ tools: plan.tools, allow: plan.allow, deny: plan.deny, mode: call.mode, cwd: plan.cwd, settings: plan.toolSettings, checkPermission: plan.checkPermission, ...(plan.approvals.canUseTool ? { canUseTool: plan.approvals.canUseTool } : {}) }),
    settings: plan.toolSettings,
    env: plan.env,
    // Only a `task` call gets what starting a subagent takes from this run (subagents/task-host.ts).
    ...(call.tool?.category === 'task' ? taskHostEntry(scope, call.mode) : {}),
  };
}
