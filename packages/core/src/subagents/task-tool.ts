import type { JSONSchema } from '../spec/json.js';
import type { CairnPlugin } from '../spec/plugin/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import { defineTool } from '../tools/define-tool.js';
import type { SubagentType } from './definitions.js';
import { taskHostOf } from './task-host.js';

// JSON Schema, not zod: core must not load zod at import (start-up budget, docs/benchmarks.md).
export const taskInputSchema: { jsonSchema: JSONSchema } = {
  jsonSchema: {
    type: 'object',
    properties: {
      description: { type: 'string', minLength: 1, description: 'A short (3-5 word) label for the task, shown to the user.' },
      prompt: { type: 'string', minLength: 1, description: 'The complete task for the subagent. It does not see this conversation: include every fact, path and constraint it needs.' },
      subagent_type: { type: 'string', description: 'Which subagent to start (see the list in the description). Default: generalPurpose.' },
    },
    required: ['description', 'prompt'],
  },
};

export interface TaskInput {
  description: string;
  prompt: string;
  subagent_type?: string;
}

/** How long one subagent may run before its task call is stopped (its own steps are capped by maxSteps too). */
export const taskTimeoutMs = 60 * 60_000;

/**
 * The `task` tool as a tool pack declares it. Each agent binds it to itself (agent-subagents.ts):
 * the bound copy lists the agent's subagent types and starts child runs. This unbound one only
 * exists so registries, allow-lists and rules know the tool; called outside an agent it says so.
 */
export const taskTool: ToolDefinition<TaskInput> = defineTool<TaskInput>({
  id: 'task',
  name: 'task',
  description: 'Start a subagent with its own context for a self-contained task; its final answer is the result.',
  inputSchema: taskInputSchema,
  // A subagent never has more rights than the mode of the run that starts it (subagentModeFor), so
  // the call itself changes nothing a read-only mode forbids: plan and ask may delegate reading.
  readOnly: true,
  category: 'task',
  timeoutMs: taskTimeoutMs,
  execute(_input, context) {
    taskHostOf(context);
    throw new Error('The task tool was not bound to an agent.');
  },
});

/** Registers the `task` tool (subagents); `@cairn/sdk` includes it. */
export const subagentsPlugin: CairnPlugin = { name: '@cairn/subagents', tools: [taskTool] };

/** The bound tool's description: what it does and every type the model may choose. */
export function taskToolDescription(types: readonly SubagentType[]): string {
  const list = types.map((type) => `- ${type.name}: ${type.description}`).join('\n');
  return [
    'Start a subagent: a separate agent with its own, empty context that works on one task and returns its final message as the result.',
    'Use it for self-contained work (a search across the codebase, an independent change) so your own context stays small; start several in one turn to run them in parallel (up to 4 at once, more wait their turn).',
    'The subagent does not see this conversation: the prompt must carry everything it needs. It has at most the tools you have now.',
    `Available subagent types (subagent_type):\n${list}`,
  ].join('\n\n');
}
