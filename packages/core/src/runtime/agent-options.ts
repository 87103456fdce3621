import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { Registry } from '../registry/registry.js';
import type { InteractionUpdate } from '../spec/events/v1/index.js';
import type { ModelSelection, ProviderSettings } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { CustomTool, ToolName } from '../spec/tool/v1/index.js';
import type { CanUseTool, PermissionRules } from '../permissions/index.js';
import type { AgentHooks, CompactionPolicy } from './compaction.js';
import type { ApproveModeSwitch } from './mode-switch.js';

export type { AgentHooks, CompactionPolicy, PreCompactEvent } from './compaction.js';
export type { ApproveModeSwitch, ModeSwitchRequest } from './mode-switch.js';

export type { CanUseTool, PermissionRequest as ToolPermissionRequest, PermissionRules } from '../permissions/index.js';

export interface SandboxOptions {
  enabled: boolean;
  network?: { allow: string[] };
}

export interface LocalOptions {
  /** The workspace root; every tool is confined to it. */
  cwd: string;
  store?: AgentStore;
  settingSources?: Array<'project' | 'user' | 'all'>;
  customTools?: Record<string, CustomTool>;
  sandboxOptions?: SandboxOptions;
  autoReview?: boolean;
}

export interface AgentOptions {
  model?: ModelSelection | string;
  apiKey?: string;
  mode?: string;
  name?: string;
  local?: LocalOptions;
  tools?: ToolName[];
  disallowedTools?: ToolName[];
  permissions?: PermissionRules;
  /** Decides `ask` rules; without it, headless `ask` means deny. */
  canUseTool?: CanUseTool;
  /** The decision when no rule matches a call that may change something (default `allow`; the sandbox is the boundary). */
  defaultPermission?: 'allow' | 'ask' | 'deny';
  /** Explicit bypass: let tools write protected paths (.git internals, .cairn/, shell start-up files). */
  allowProtectedPathWrites?: boolean;
  /** Model calls per run. Default 50. */
  maxSteps?: number;
  providers?: Record<string, ProviderSettings>;
  /** Retry and watchdog policy for model calls. */
  retry?: Partial<RetryPolicy>;
  /** Text appended to the system prompt after the built-in blocks. */
  systemPrompt?: { append?: string };
  /** Per-tool settings handed to tools as `context.settings` (e.g. `{ webFetch: {...} }`). */
  toolSettings?: Record<string, unknown>;
  /** The environment used for keys and handed to tools (default: process.env). */
  env?: Record<string, string | undefined>;
  /** The registry of providers, tools and modes (default: the one the Cairn instance was created with). */
  registry?: Registry;
  /** When and how the conversation is compacted (SPEC section 6). Default: 80 % of the model's window. */
  compaction?: CompactionPolicy;
  /** Typed in-process hooks (only `preCompact` so far). */
  hooks?: AgentHooks;
  /**
   * Decides `switch_mode` requests whose transition requires approval (plan -> agent) during a run.
   * Without it (headless) such a switch stays pending and the model is told it awaits the user; the
   * user approves with `send(text, { mode: 'agent' })`, `send(text, { approvePlan: true })` or `agent.approvePlan()`.
   */
  approveModeSwitch?: ApproveModeSwitch;
  /**
   * Offer every tool in every mode (tools the mode does not allow are still refused when called), so
   * the tool list — the start of every request — stays byte-identical across mode switches. Default
   * false: tools a mode does not allow are not offered (SPEC section 4).
   */
  stableToolList?: boolean;
}

export interface SendOptions {
  /** Model override that stays for later sends. */
  model?: ModelSelection | string;
  /** Mode for this run only. */
  mode?: string;
  onDelta?: (event: { update: InteractionUpdate }) => void | Promise<void>;
  onStep?: (event: { step: StepSummary }) => void | Promise<void>;
  local?: { customTools?: Record<string, CustomTool>; force?: boolean };
  signal?: AbortSignal;
  maxSteps?: number;
  /**
   * Approve the plan `create_plan` proposed: its steps become the todo list and the run executes in
   * the approval target mode (agent), which stays the agent's mode. Default (undefined): approve when
   * this send leaves plan mode for agent mode while a plan is proposed; false: never. With no proposed
   * plan in the conversation, `true` changes nothing.
   */
  approvePlan?: boolean;
}

export interface StepSummary {
  step: number;
  mode: string;
  text: string;
  toolCalls: Array<{ callId: string; name: string; isError: boolean }>;
  finishReason: string;
}
