import type { JSONValue } from '../spec/json.js';
import type { PreCompactEvent, PreCompactResult } from '../runtime/compaction.js';

/**
 * Typed in-process hooks (`AgentOptions.hooks`, SPEC section 9): the events file hooks see, with
 * typed inputs and answers. File hooks of the same event run first; the strictest answer wins, and
 * a hook's `allow` never overrides a permission rule's deny (docs/hooks.md).
 */
export interface AgentHooks {
  /** The first send of an agent handle: `startup` for a new conversation, `resume` for a stored one. */
  sessionStart?: HookCallback<SessionStartInput, SessionStartOutput>;
  /** `agent.close()` of a handle whose session started. */
  sessionEnd?: HookCallback<SessionEndInput, void>;
  /** Before the user's message reaches the model: may block it or add context. */
  userPromptSubmit?: HookCallback<UserPromptSubmitInput, UserPromptSubmitOutput>;
  /** After the permission rules allowed (or asked about) a call, before it runs: may deny, ask or rewrite its input. */
  preToolUse?: HookCallback<PreToolUseInput, PreToolUseOutput>;
  /** After a call returned a result: may add context or feed a reason back to the model. */
  postToolUse?: HookCallback<PostToolUseInput, PostToolUseOutput>;
  /** After a call failed (an error result): may add context. */
  postToolUseFailure?: HookCallback<PostToolUseFailureInput, PostToolUseFailureOutput>;
  /** After an edit tool changed a file (Cursor's `afterFileEdit`). */
  afterFileEdit?: HookCallback<AfterFileEditInput, void>;
  /** Before a compaction; may add instructions for the summary (like Claude Code's PreCompact). */
  preCompact?: (event: PreCompactEvent, context?: HookContext) => PreCompactResult | Promise<PreCompactResult>;
  /** When the run would finish: `decision: 'block'` keeps it going with `reason` as the next user message (capped). */
  stop?: HookCallback<StopInput, StopOutput>;
  /** Before a subagent starts (the task tool): may add context to its prompt. */
  subagentStart?: HookCallback<SubagentStartInput, SubagentStartOutput>;
  /** When a subagent would finish: like `stop`, for the subagent's run. */
  subagentStop?: HookCallback<SubagentStopInput, StopOutput>;
  /** When a run waits for a person (an approval request). */
  notification?: HookCallback<NotificationInput, void>;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook may return nothing
export type HookCallback<Input, Output> = (input: Input, context: HookContext) => Output | void | Promise<Output | void>;

export interface HookContext {
  /** Aborted when the run is cancelled or the hook's work is no longer needed. */
  signal: AbortSignal;
}

export type HookEventName = keyof AgentHooks;

export interface HookInputBase {
  agentId: string;
  /** The run the event belongs to (absent for sessionEnd). */
  runId?: string;
  cwd: string;
  /** The mode the run is in. */
  mode?: string;
  /** Set when the event comes from a subagent's run (task tool). */
  subagent?: { id: string; type: string };
}

export interface SessionStartInput extends HookInputBase {
  source: 'startup' | 'resume';
}
export interface SessionStartOutput {
  additionalContext?: string;
  systemMessage?: string;
}

export interface SessionEndInput extends HookInputBase {
  reason: 'close';
}

export interface UserPromptSubmitInput extends HookInputBase {
  prompt: string;
}
export interface UserPromptSubmitOutput {
  /** `block`: the message never reaches the model; the run ends with `reason`. */
  decision?: 'block';
  reason?: string;
  additionalContext?: string;
  systemMessage?: string;
}

export interface ToolHookInput extends HookInputBase {
  toolCallId: string;
  /** The tool's id (`shell`, `read`, `mcp`...). */
  toolId: string;
  /** The model-facing name (`run_terminal_cmd`, `mcp__docs__search`). */
  toolName: string;
  /** The tool's category (`shell`, `fs`, `mcp`...). */
  category: string;
  /** The arguments, validated against the tool's schema. */
  input: Record<string, unknown>;
}

export interface PreToolUseInput extends ToolHookInput {
  /** What the permission rules decided: `ask` when the call still waits for a person. */
  permission: 'allow' | 'ask';
}
export interface PreToolUseOutput {
  /** `deny` refuses the call with `reason`; `ask` needs a person's approval; `allow` adds nothing (rules stay). */
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  /** Replaces the call's arguments (checked against the schema and the permission rules again). */
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  systemMessage?: string;
}

export interface PostToolUseInput extends ToolHookInput {
  /** The text the model reads. */
  output: string;
  /** The tool's structured result, when it has one (the shell's exit code and output, for example). */
  structuredContent?: JSONValue;
}
export interface PostToolUseOutput {
  /** `block`: `reason` is added to the result the model reads. */
  decision?: 'block';
  reason?: string;
  additionalContext?: string;
  systemMessage?: string;
}

export interface PostToolUseFailureInput extends ToolHookInput {
  error: string;
}
export interface PostToolUseFailureOutput {
  additionalContext?: string;
  systemMessage?: string;
}

export interface AfterFileEditInput extends HookInputBase {
  toolCallId: string;
  toolName: string;
  /** Absolute path of the edited file. */
  filePath: string;
  edits: Array<{ oldString: string; newString: string }>;
}

export interface StopInput extends HookInputBase {
  /** True when a stop hook kept this run going before. */
  stopHookActive: boolean;
  /** How often stop hooks kept this run going so far. */
  continues: number;
  /** The run's final text. */
  result: string;
}
export interface StopOutput {
  /** `block`: the run goes on with `reason` as the next user message. */
  decision?: 'block';
  reason?: string;
  systemMessage?: string;
}

export interface SubagentStartInput extends HookInputBase {
  subagentId: string;
  subagentType: string;
  prompt: string;
}
export interface SubagentStartOutput {
  additionalContext?: string;
}

export interface SubagentStopInput extends HookInputBase {
  subagentId: string;
  subagentType: string;
  stopHookActive: boolean;
  result: string;
}

export interface NotificationInput extends HookInputBase {
  message: string;
  notificationType: 'permission_prompt';
}

export type { PreCompactEvent, PreCompactResult };
