import type { PlanTodo, StoredPlan, TodoItem } from './todo-types.js';

export type PlanTodoProblem =
  | { kind: 'empty-id'; index: number }
  | { kind: 'duplicate-id'; id: string }
  | { kind: 'unknown-dependency'; id: string; dependency: string }
  | { kind: 'self-dependency'; id: string }
  | { kind: 'cycle'; cycle: string[] };

export interface PlanTodoValidation {
  ok: boolean;
  problems: PlanTodoProblem[];
  /** One sentence per problem, naming the ids involved (what the model reads). */
  messages: string[];
}

/**
 * Check a plan's steps: ids unique and non-empty, every dependency names another step, and the
 * dependency graph has no cycle. Pure; returns every problem rather than stopping at the first so
 * the model can fix them all in one retry.
 */
export function validatePlanTodos(todos: readonly PlanTodo[]): PlanTodoValidation {
  const problems: PlanTodoProblem[] = [];
  const ids = new Set<string>();
  todos.forEach((todo, index) => {
    if (todo.id.trim() === '') problems.push({ kind: 'empty-id', index });
    else if (ids.has(todo.id)) problems.push({ kind: 'duplicate-id', id: todo.id });
    ids.add(todo.id);
  });
  for (const todo of todos) {
    for (const dependency of todo.dependencies) {
      if (dependency === todo.id) problems.push({ kind: 'self-dependency', id: todo.id });
      else if (!ids.has(dependency)) problems.push({ kind: 'unknown-dependency', id: todo.id, dependency });
    }
  }
  for (const cycle of findCycles(todos, ids)) problems.push({ kind: 'cycle', cycle });
  return { ok: problems.length === 0, problems, messages: problems.map(describeProblem) };
}

function describeProblem(problem: PlanTodoProblem): string {
  switch (problem.kind) {
    case 'empty-id':
      return `Todo at index ${problem.index} has an empty id.`;
    case 'duplicate-id':
      return `Todo id "${problem.id}" is used more than once.`;
    case 'unknown-dependency':
      return `Todo "${problem.id}" depends on "${problem.dependency}", which is not a todo of this plan.`;
    case 'self-dependency':
      return `Todo "${problem.id}" depends on itself.`;
    case 'cycle':
      return `Dependency cycle: ${problem.cycle.join(' -> ')}.`;
  }
}

/**
 * Depth-first search with three colours; each back edge closes one cycle, reported as the path from
 * the repeated id back to itself (`a -> b -> a`). Self-dependencies are reported separately.
 */
function findCycles(todos: readonly PlanTodo[], ids: ReadonlySet<string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const todo of todos) {
    const known = todo.dependencies.filter((dependency) => ids.has(dependency) && dependency !== todo.id);
    edges.set(todo.id, [...(edges.get(todo.id) ?? []), ...known]);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    path.push(id);
    for (const next of edges.get(id) ?? []) {
      const seen = state.get(next);
      if (seen === 'visiting') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of edges.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/**
 * The todo list to load into `todo_write` state when the user approves a plan: every step pending,
 * in the plan's order.
 */
export function planTodosToTodoList(plan: Pick<StoredPlan, 'todos'>): TodoItem[] {
  return plan.todos.map((todo) => ({ id: todo.id, content: todo.content, status: 'pending' }));
}
