/** A plan as `create_plan` proposes it (the `plan-created` update). */
export interface ProposedPlan {
  name?: string;
  overview?: string;
  plan?: string;
  todos?: Array<{ id: string; content: string; dependencies?: string[] }>;
}

/** The plan in full, as markdown: name, overview, the plan, then its steps with their dependencies. */
export function planMarkdown(plan: ProposedPlan): string {
  const steps = (plan.todos ?? []).map((todo, index) => `${index + 1}. ${todo.content}${todo.dependencies?.length ? ` (after ${todo.dependencies.join(', ')})` : ''}`);
  return [`# Plan: ${plan.name ?? 'untitled'}`, plan.overview ?? '', plan.plan ?? '', steps.length ? `## Steps\n\n${steps.join('\n')}` : '']
    .filter((part) => part.trim())
    .join('\n\n');
}

export interface TodoItem {
  id: string;
  content: string;
  status: string;
}

const marks: Record<string, string> = { completed: '[x]', in_progress: '[~]', cancelled: '[-]', pending: '[ ]' };

/** One checklist line per todo: `[x] done`, `[~] in progress`, `[ ] pending`, `[-] cancelled`. */
export function todoLines(todos: readonly TodoItem[]): Array<{ mark: string; text: string; status: string }> {
  return todos.map((todo) => ({ mark: marks[todo.status] ?? '[ ]', text: todo.content, status: todo.status }));
}
