import type { TodoItem, TodoStatus } from './todo-types.js';

const statusMarks: Record<TodoStatus, string> = {
  pending: '[ ]',
  in_progress: '[~]',
  completed: '[x]',
  cancelled: '[-]',
};

/** The todo list as the model reads it back: a count line, then one line per todo. */
export function formatTodoList(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  const completed = todos.filter((todo) => todo.status === 'completed').length;
  const lines = todos.map((todo) => `${statusMarks[todo.status]} ${todo.id}: ${todo.content} (${todo.status})`);
  return [`Todo list (${completed} of ${todos.length} completed):`, ...lines].join('\n');
}
