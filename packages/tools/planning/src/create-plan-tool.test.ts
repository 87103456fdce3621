import { ToolError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { createPlanTool } from './create-plan-tool.js';
import { planTodosToTodoList } from './plan-todos.js';
import type { StoredPlan } from './todo-types.js';

const input = {
  name: 'Add caching',
  overview: 'Cache parsed configs.',
  plan: '## Steps\n1. Add a cache\n2. Test it',
  todos: [
    { id: 'cache', content: 'Add an LRU cache', dependencies: [] },
    { id: 'tests', content: 'Test the cache', dependencies: ['cache'] },
  ],
};

describe('create_plan', () => {
  it('stores a proposed plan, emits plan-created and says it awaits approval', async () => {
    const context = createToolContext({ mode: 'plan' });
    const result = await createPlanTool.execute(input, context);
    const stored = context.stateValues.get('plan') as StoredPlan;
    expect(stored).toMatchObject({ name: 'Add caching', overview: 'Cache parsed configs.', plan: input.plan, todos: input.todos, status: 'proposed' });
    expect(Number.isNaN(Date.parse(stored.createdAt))).toBe(false);
    expect(context.updates).toEqual([{ type: 'plan-created', plan: stored }]);
    const text = (result as { content: Array<{ text: string }> }).content[0]!.text;
    expect(text).toContain("awaits the user's approval");
    expect(planTodosToTodoList(stored).map((todo) => todo.status)).toEqual(['pending', 'pending']);
  });

  it('refuses a cycle, naming it, and stores nothing', async () => {
    const context = createToolContext({ mode: 'plan' });
    const cyclic = { ...input, todos: [{ id: 'a', content: 'A', dependencies: ['b'] }, { id: 'b', content: 'B', dependencies: ['a'] }] };
    await expect(createPlanTool.execute(cyclic, context)).rejects.toSatisfy(
      (error) => ToolError.isInstance(error) && error.message.includes('Dependency cycle: a -> b -> a.'),
    );
    expect(context.stateValues.has('plan')).toBe(false);
    expect(context.updates).toEqual([]);
  });

  it('refuses unknown dependency ids, naming them', async () => {
    const context = createToolContext({ mode: 'plan' });
    const unknown = { ...input, todos: [{ id: 'a', content: 'A', dependencies: ['ghost'] }] };
    await expect(createPlanTool.execute(unknown, context)).rejects.toThrow('"a" depends on "ghost"');
  });
});
