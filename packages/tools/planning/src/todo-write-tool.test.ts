import { ToolError, toolInputJsonSchema } from '@cairn/core';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { type TodoWriteInput, todoWriteTool } from './todo-write-tool.js';

// The validator and draft core checks tool arguments with.
const validator = new Validator(toolInputJsonSchema(todoWriteTool.inputSchema) as ConstructorParameters<typeof Validator>[0], '2020-12', false);

const run = async (input: unknown, context = createToolContext()) => {
  const result = validator.validate(input);
  if (!result.valid) throw new Error(`schema rejected input: ${result.errors.map((error) => `${error.instanceLocation}: ${error.error}`).join('; ')}`);
  return { result: await todoWriteTool.execute(input as TodoWriteInput, context), context };
};

describe('todo_write', () => {
  it('replaces the list, stores it in run state, emits todos-updated and returns it as text', async () => {
    const context = createToolContext();
    context.state.set('todos', [{ id: 'old', content: 'old item', status: 'pending' }]);
    const { result } = await run(
      { merge: false, todos: [{ id: '1', content: 'write parser', status: 'in_progress' }, { id: '2', content: 'add tests', status: 'pending' }] },
      context,
    );
    const todos = [
      { id: '1', content: 'write parser', status: 'in_progress' },
      { id: '2', content: 'add tests', status: 'pending' },
    ];
    expect(context.stateValues.get('todos')).toEqual(todos);
    expect(context.updates).toEqual([{ type: 'todos-updated', todos }]);
    expect(result).toMatchObject({ structuredContent: { todos } });
    const text = (result as { content: Array<{ text: string }> }).content[0]!.text;
    expect(text).toBe('Todo list (0 of 2 completed):\n[~] 1: write parser (in_progress)\n[ ] 2: add tests (pending)');
  });

  it('merges by id, keeping left-out fields and appending new ids', async () => {
    const context = createToolContext();
    await run({ merge: false, todos: [{ id: 'a', content: 'first', status: 'pending' }, { id: 'b', content: 'second', status: 'pending' }] }, context);
    await run({ merge: true, todos: [{ id: 'a', status: 'completed' }, { id: 'c', content: 'third', status: 'pending' }] }, context);
    expect(context.stateValues.get('todos')).toEqual([
      { id: 'a', content: 'first', status: 'completed' },
      { id: 'b', content: 'second', status: 'pending' },
      { id: 'c', content: 'third', status: 'pending' },
    ]);
    expect(context.updates).toHaveLength(2);
  });

  it('refuses a new item without content or status, and duplicate ids, leaving state unchanged', async () => {
    const context = createToolContext();
    await expect(run({ merge: true, todos: [{ id: 'x', status: 'pending' }] }, context)).rejects.toThrow('"x" is new');
    await expect(run({ merge: false, todos: [{ id: 'x', content: 'a', status: 'pending' }, { id: 'x', content: 'b', status: 'pending' }] }, context))
      .rejects.toSatisfy((error) => ToolError.isInstance(error) && error.message.includes('appears twice'));
    expect(context.stateValues.has('todos')).toBe(false);
    expect(context.updates).toEqual([]);
  });

  it('rejects an unknown status through its schema and is offered in read-only modes', async () => {
    await expect(run({ merge: false, todos: [{ id: '1', content: 'a', status: 'done' }] })).rejects.toThrow('#/todos/0/status: Instance does not match any of');
    expect(todoWriteTool.readOnly).toBe(true);
    expect(toolInputJsonSchema(todoWriteTool.inputSchema)).toMatchObject({ required: ['todos', 'merge'] });
  });
});
