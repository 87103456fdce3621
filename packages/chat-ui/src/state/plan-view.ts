/** A plan `create_plan` proposed (the `plan-created` update's `plan`), as the UI shows it. */
export interface PlanView {
  name: string;
  overview: string;
  /** Markdown. */
  body: string;
  steps: Array<{ id: string; content: string; dependencies: string[] }>;
  /** Set once a plan approval of the run was answered. */
  decision?: 'approved' | 'rejected';
}

/** The update's `plan` is typed `unknown` on the wire: read the fields create_plan writes, tolerating others. */
export function planViewOf(value: unknown): PlanView {
  const plan = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof plan[key] === 'string' ? (plan[key] as string) : '');
  const todos = Array.isArray(plan.todos) ? plan.todos : [];
  const steps = todos
    .filter((todo): todo is Record<string, unknown> => typeof todo === 'object' && todo !== null)
    .map((todo, index) => ({
      id: typeof todo.id === 'string' ? todo.id : String(index + 1),
      content: typeof todo.content === 'string' ? todo.content : '',
      dependencies: Array.isArray(todo.dependencies) ? todo.dependencies.filter((id): id is string => typeof id === 'string') : [],
    }));
  return { name: text('name') || 'Plan', overview: text('overview'), body: text('plan'), steps };
}
