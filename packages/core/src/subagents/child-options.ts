import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from '../runtime/agent-options.js';
import { isReadOnlyTool, toolMatches } from '../runtime/tool-set.js';
import type { SubagentType } from './definitions.js';

/** Tools that steer the user's own conversation (a plan for the user, a mode switch), never a subagent's. */
const parentOnlyTools = ['plan', 'switchMode'];

/**
 * The tools a child gets: what the parent offers right now (so never more), minus the parent-only
 * tools, narrowed to the type's `tools` list and, for a read-only type, to read-only tools. The
 * child's own mode narrows again at every step.
 */
export function childTools(offered: readonly ToolDefinition[], type: SubagentType): ToolDefinition[] {
  return offered.filter((tool) => {
    if (parentOnlyTools.some((name) => toolMatches(tool, name))) return false;
    if (type.readOnly && !isReadOnlyTool(tool)) return false;
    // The task tool stays whatever the list says: whether a child may nest is the depth rule's call.
    if (type.tools && tool.category !== 'task' && !type.tools.some((name) => toolMatches(tool, name))) return false;
    return true;
  });
}

/**
 * A child's options: the parent's limits and callbacks (permission rules, canUseTool, sandbox,
 * disallowedTools, hooks, settings layers, env, registry), the type's prompt and model, and the
 * mode the parent's mode hands subagents. Left out: what names or starts things of the parent's own
 * (agentId, name, mcpServers and custom tools: their tools arrive through the tool list), and
 * waiting approvals (a child's `ask` goes to canUseTool, else it is denied; nobody watches a
 * child's run to approve it).
 */
export function childAgentOptions(parent: AgentOptions, type: SubagentType, model: ModelSelection, mode: ModeDefinition, cwd: string): AgentOptions {
  const { agentId, name, mcpServers, approvals, approvalTimeoutMs, approveModeSwitch, tools, stableToolList, systemPrompt, local, ...kept } = parent;
  return {
    ...kept,
    model,
    mode: mode.id,
    systemPrompt: { append: subagentInstructions(type) },
    local: {
      cwd,
      ...(local?.settingSources ? { settingSources: local.settingSources } : {}),
      ...(local?.sandboxOptions ? { sandboxOptions: local.sandboxOptions } : {}),
      ...(local?.autoReview !== undefined ? { autoReview: local.autoReview } : {}),
    },
  };
}

function subagentInstructions(type: SubagentType): string {
  return [
    `You are a subagent (${type.name}) started by another agent for one task. You cannot ask it or the user questions: work with what the task says.`,
    'Your final message is returned to that agent as the result of its task call: make it a complete, concise answer.',
    type.prompt,
  ].filter(Boolean).join('\n\n');
}
