import type { FromSchema } from 'json-schema-to-ts';

/** Keys of the run-scoped state (`context.state`) that the planning tools own. */
export const todoStateKey = 'todos';
export const planStateKey = 'plan';
export const pendingModeSwitchStateKey = 'pendingModeSwitch';

/** The JSON Schema of a todo's status (todo_write's `status` argument). */
export const todoStatusSchema = { type: 'string', enum: ['pending', 'in_progress', 'completed', 'cancelled'] } as const;
export type TodoStatus = FromSchema<typeof todoStatusSchema>;

/** One entry of the run's todo list, as stored under `todos` and streamed in `todos-updated`. */
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}

/** One step of a plan; `dependencies` are ids of other steps of the same plan. */
export interface PlanTodo {
  id: string;
  content: string;
  dependencies: string[];
}

/** What `create_plan` stores under `plan`. `status` moves on when the user approves or rejects. */
export interface StoredPlan {
  name: string;
  overview: string;
  plan: string;
  todos: PlanTodo[];
  /** ISO 8601 time the plan was created. */
  createdAt: string;
  status: 'proposed' | 'approved' | 'rejected';
}

/** What `switch_mode` stores under `pendingModeSwitch` for the run machine to apply. */
export interface PendingModeSwitch {
  /** The mode the model asked for. */
  to: string;
  /** The mode the run was in when the model asked. */
  from: string;
  explanation: string;
  /** Epoch milliseconds of the request (the runtime's `PendingModeSwitch` shape). */
  requestedAt: number;
}
