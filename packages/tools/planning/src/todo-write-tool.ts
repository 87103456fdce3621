import { defineTool, ToolError, type ToolResultContent } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { formatTodoList } from './format-todos.js';
import { type TodoItem, todoStateKey, todoStatusSchema } from './todo-types.js';

const todoInputSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: 'Stable id of the todo; reuse it to update the same item.' },
    content: { description: 'What to do, one short sentence. Required for new items; may be left out when merging an update.', type: 'string' },
    status: { description: 'pending, in_progress, completed or cancelled. Required for new items.', ...todoStatusSchema },
  },
  required: ['id'],
} as const;

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const todoWriteInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      todos: { type: 'array', items: todoInputSchema, description: 'The todos to write.' },
      merge: {
        type: 'boolean',
        description: 'true: update the existing list by id (unknown ids are appended, left-out fields kept); false: replace the whole list.',
      },
    },
    required: ['todos', 'merge'],
  },
} as const;

export type TodoWriteInput = FromSchema<typeof todoWriteInputSchema.jsonSchema>;

/**
 * Apply one todo_write call to the current list. Pure, so the runtime or a UI can replay it.
 * Throws ToolError naming the offending id when an item lacks content or status it needs.
 */
export function applyTodoWrite(current: readonly TodoItem[], input: TodoWriteInput): TodoItem[] {
  const seen = new Set<string>();
  for (const todo of input.todos) {
    if (seen.has(todo.id)) throw new ToolError(`Todo id "${todo.id}" appears twice in this call. Send each id once.`);
    seen.add(todo.id);
  }
  const complete = (todo: TodoWriteInput['todos'][number], previous: TodoItem | undefined): TodoItem => {
    const content = todo.content ?? previous?.content;
    const status = todo.status ?? previous?.status;
    if (content === undefined || content.trim() === '' || status === undefined) {
      const why = previous ? 'needs a non-empty content' : 'is new, so it needs both content and status';
      throw new ToolError(`Todo "${todo.id}" ${why}.`);
    }
    return { id: todo.id, content, status };
  };
  if (!input.merge) return input.todos.map((todo) => complete(todo, undefined));
  const next = current.map((todo) => ({ ...todo }));
  for (const todo of input.todos) {
    const index = next.findIndex((existing) => existing.id === todo.id);
    if (index === -1) next.push(complete(todo, undefined));
    else next[index] = complete(todo, next[index]);
  }
  return next;
}

export const todoWriteTool = defineTool<TodoWriteInput>({
  id: 'todo',
  name: 'todo_write',
  description: [
    'Create and update a structured todo list for the current task, visible to the user.',
    'Use it for work of three or more steps: mark one item in_progress before you start it and completed as soon as it is done.',
    'With merge: true only the given ids change; with merge: false the list is replaced.',
  ].join(' '),
  inputSchema: todoWriteInputSchema,
  // Changes only run state, never the workspace: offered in read-only modes too.
  readOnly: true,
  category: 'planning',
  async execute(input, context): Promise<ToolResultContent> {
    const current = context.state.get<TodoItem[]>(todoStateKey) ?? [];
    const todos = applyTodoWrite(current, input);
    context.state.set(todoStateKey, todos);
    context.emit({ type: 'todos-updated', todos: todos.map((todo) => ({ ...todo })) });
    return {
      content: [{ type: 'text', text: formatTodoList(todos) }],
      structuredContent: { todos: todos.map((todo) => ({ ...todo })) },
    };
  },
});
