import type { AgentHooks, HookContext, HookInputBase } from './hook-types.js';
import type { RunHooks } from './run-hooks.js';

const subagentBrand = Symbol.for('cairn.hooks.subagent');

/**
 * The hooks a subagent's run uses: its parent run's (file hooks and typed callbacks alike), so a
 * project's policy holds for every tool call of the tree. Pass the result as the child agent's
 * `hooks`; the child then loads no hooks files of its own (they would fire twice). Events carry the
 * parent's agent id as `session_id` and the subagent in `agent_id` / `agent_type`, as Claude Code
 * does; the child's stop is the parent's `subagentStop`, and it has no session or prompt events.
 */
export function subagentHooks(parent: RunHooks, info: { parentAgentId: string; subagentId: string; subagentType: string }): AgentHooks {
  const tag = <Input extends HookInputBase>(input: Input): Input => ({ ...input, agentId: info.parentAgentId, subagent: { id: info.subagentId, type: info.subagentType } });
  const hooks: AgentHooks & { [subagentBrand]: true } = {
    [subagentBrand]: true,
    preToolUse: (input, context) => parent.preToolUse(tag(input), context),
    postToolUse: (input, context) => parent.postToolUse(tag(input), context),
    postToolUseFailure: (input, context) => parent.postToolUseFailure(tag(input), context),
    afterFileEdit: (input, context) => parent.afterFileEdit(tag(input), context),
    notification: (input, context) => parent.notification(tag(input), context),
    preCompact: (event, context) => parent.preCompact?.({ ...event, agentId: info.parentAgentId }, context),
    stop: (input, context: HookContext) =>
      parent.subagentStop({ ...tag(input), subagentId: info.subagentId, subagentType: info.subagentType, stopHookActive: input.stopHookActive, result: input.result }, context),
  };
  return hooks;
}

export function isSubagentHooks(hooks: AgentHooks | undefined): boolean {
  return hooks !== undefined && (hooks as { [subagentBrand]?: true })[subagentBrand] === true;
}
