import { memo } from 'react';
import type { TodoItem } from '../wire-types.js';

const statusLabel: Record<string, string> = { pending: 'to do', in_progress: 'in progress', completed: 'done', cancelled: 'cancelled' };

/** The run's todo list, live: each `todos-updated` redraws it in place. */
export const TodoList = memo(function TodoList({ todos }: { todos: TodoItem[] }) {
  const done = todos.filter((todo) => todo.status === 'completed').length;
  return (
    <section className="cairn-todos" data-testid="todos" aria-label={`Todos, ${done} of ${todos.length} done`}>
      <h3 className="cairn-todos-title">
        Todos <span className="cairn-muted">{`${done}/${todos.length}`}</span>
      </h3>
      <ul>
        {todos.map((todo) => (
          <li key={todo.id} className={`cairn-todo cairn-todo-${todo.status}`} data-status={todo.status}>
            <input type="checkbox" checked={todo.status === 'completed'} readOnly tabIndex={-1} aria-label={statusLabel[todo.status] ?? todo.status} />
            <span className="cairn-todo-text">{todo.content}</span>
            {todo.status === 'in_progress' ? <span className="cairn-todo-badge">in progress</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
});
