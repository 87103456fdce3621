export type {
  AfterFileEditInput, AgentHooks, HookCallback, HookContext, HookEventName, HookInputBase, NotificationInput, PostToolUseFailureInput, PostToolUseFailureOutput,
  PostToolUseInput, PostToolUseOutput, PreCompactEvent, PreCompactResult, PreToolUseInput, PreToolUseOutput, SessionEndInput, SessionStartInput, SessionStartOutput,
  StopInput, StopOutput, SubagentStartInput, SubagentStartOutput, SubagentStopInput, ToolHookInput, UserPromptSubmitInput, UserPromptSubmitOutput,
} from './hook-types.js';
export type { HookProjectFile } from './hook-files.js';
export type { HookFormat } from './hook-config.js';
export { maxStopHookContinues, type RunHooks, runHooksOf } from './run-hooks.js';
export { subagentHooks } from './subagent-hooks.js';
