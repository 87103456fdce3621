export { createPlanInputSchema, type CreatePlanInput, createPlanTool } from './create-plan-tool.js';
export { formatTodoList } from './format-todos.js';
export { type PlanTodoProblem, type PlanTodoValidation, planTodosToTodoList, validatePlanTodos } from './plan-todos.js';
export { planningTools, planningToolsPlugin } from './plugin.js';
export { type SwitchModeInput, switchModeInputSchema, switchModeTool } from './switch-mode-tool.js';
export {
  type PendingModeSwitch, type PlanTodo, pendingModeSwitchStateKey, planStateKey, type StoredPlan, type TodoItem, type TodoStatus,
  todoStateKey, todoStatusSchema,
} from './todo-types.js';
export { applyTodoWrite, type TodoWriteInput, todoWriteInputSchema, todoWriteTool } from './todo-write-tool.js';
