import { defineTool, ToolError, type ToolResultContent } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { validatePlanTodos } from './plan-todos.js';
import { planStateKey, type StoredPlan } from './todo-types.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const createPlanInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, description: 'A short name for the plan.' },
      overview: { type: 'string', minLength: 1, description: 'One or two sentences: what the plan achieves.' },
      plan: { type: 'string', minLength: 1, description: 'The plan in markdown: approach, files to change, risks, how to verify.' },
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', minLength: 1, description: 'Unique id of the step.' },
            content: { type: 'string', minLength: 1, description: 'What the step does.' },
            dependencies: { type: 'array', items: { type: 'string' }, description: 'Ids of steps that must be done first (may be empty).' },
          },
          required: ['id', 'content', 'dependencies'],
        },
        description: 'The steps of the plan, in the order they should be done.',
      },
    },
    required: ['name', 'overview', 'plan', 'todos'],
  },
} as const;

export type CreatePlanInput = FromSchema<typeof createPlanInputSchema.jsonSchema>;

export const createPlanTool = defineTool<CreatePlanInput>({
  id: 'plan',
  name: 'create_plan',
  description: [
    'Propose an implementation plan to the user once research is done and open questions are answered.',
    'The plan is shown to the user, who approves or rejects it; nothing is implemented until it is approved.',
    'Steps may depend on other steps by id; unknown ids and dependency cycles are rejected.',
  ].join(' '),
  inputSchema: createPlanInputSchema,
  readOnly: true,
  category: 'planning',
  async execute(input, context): Promise<ToolResultContent> {
    const validation = validatePlanTodos(input.todos);
    if (!validation.ok) {
      throw new ToolError(`The plan was not created: ${validation.messages.join(' ')} Fix the todos and call create_plan again.`);
    }
    const plan: StoredPlan = {
      name: input.name,
      overview: input.overview,
      plan: input.plan,
      todos: input.todos.map((todo) => ({ id: todo.id, content: todo.content, dependencies: [...todo.dependencies] })),
      createdAt: new Date().toISOString(),
      status: 'proposed',
    };
    context.state.set(planStateKey, plan);
    const json = JSON.parse(JSON.stringify(plan));
    context.emit({ type: 'plan-created', plan: json });
    const text = [
      `Plan "${plan.name}" with ${plan.todos.length} step${plan.todos.length === 1 ? '' : 's'} was created and now awaits the user's approval.`,
      'Do not start implementing it. End your turn and wait: the user will approve it, ask for changes, or reject it.',
    ].join(' ');
    return { content: [{ type: 'text', text }], structuredContent: { plan: json } };
  },
});
