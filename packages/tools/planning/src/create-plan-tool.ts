import { defineTool, ToolError, type ToolResultContent } from '@cairn/core';
import { z } from 'zod';
import { validatePlanTodos } from './plan-todos.js';
import { planStateKey, type StoredPlan } from './todo-types.js';

export const createPlanInputSchema = z.object({
  name: z.string().min(1).describe('A short name for the plan.'),
  overview: z.string().min(1).describe('One or two sentences: what the plan achieves.'),
  plan: z.string().min(1).describe('The plan in markdown: approach, files to change, risks, how to verify.'),
  todos: z
    .array(
      z.object({
        id: z.string().min(1).describe('Unique id of the step.'),
        content: z.string().min(1).describe('What the step does.'),
        dependencies: z.array(z.string()).describe('Ids of steps that must be done first (may be empty).'),
      }),
    )
    .describe('The steps of the plan, in the order they should be done.'),
});

export type CreatePlanInput = z.infer<typeof createPlanInputSchema>;

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
