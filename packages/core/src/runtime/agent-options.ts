import type { GitWorkspace, RunDispatcher } from './background-run.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import type { Registry } from '../registry/registry.js';
import type { ConversationStep, InteractionUpdate } from '../spec/events/v1/index.js';
import type { McpProjectServer, McpServerConfig } from '../spec/mcp/v1/index.js';
import type { ModelSelection, ProviderSettings } from '../spec/provider/v1/index.js';
import type { AgentStore } from '../spec/store/v1/index.js';
import type { CustomTool, ToolName } from '../spec/tool/v1/index.js';
import type { CanUseTool, PermissionRules } from '../permissions/index.js';
import type { SettingSource } from '../config/setting-sources.js';
import type { AgentHooks, CompactionPolicy } from './compaction.js';
import type { ApproveModeSwitch } from './mode-switch.js';
import type { HookProjectFile } from '../hooks/hook-files.js';

export type { AgentHooks, CompactionPolicy, PreCompactEvent } from './compaction.js';
export type { HookProjectFile } from '../hooks/hook-files.js';
export type { ApproveModeSwitch, ModeSwitchRequest } from './mode-switch.js';

export type { CanUseTool, PermissionRequest as ToolPermissionRequest, PermissionRules } from '../permissions/index.js';

export interface SandboxOptions {
  enabled: boolean;
  network?: { allow: string[] };
}

export type { McpServerConfig };

/** A named subagent the `task` tool can start (docs/subagents.md). */
export interface AgentDefinition {
  /** When to use it: the task tool's description lists it so the model can choose. */
  description: string;
  /** The subagent's instructions (appended to its system prompt). */
  prompt: string;
  /** Its model; absent or `"inherit"`: the parent's model of the run. Checked at Agent.create. */
  model?: 'inherit' | string | ModelSelection;
  /** Only these tools, within the ones the parent offers (a subagent never gets more than its parent). */
  tools?: ToolName[];
}

export interface LocalOptions {
  /**
   * The workspace root; every tool is confined to it. Required by Agent.create (a ConfigurationError
   * says so); optional on Agent.resume, which keeps the stored one. Given to Agent.resume, the handle
   * works in that folder (a worker's clone of the agent's repository) while the stored agent keeps
   * its own.
   */
  cwd?: string;
  /**
   * Where the agent is stored: a store object, or the name of a store a registered plugin provides
   * (`'memory'` always; `'sqlite'` and `'jsonl'` with their store plugins), opened once per registry.
   * Default: the store of `Cairn.configure`, else the instance's default store.
   */
  store?: AgentStore | string;
  /** Which on-disk layers load (default: project and user instructions, restricting rules only). */
  settingSources?: SettingSource[];
  customTools?: Record<string, CustomTool>;
  /**
   * Cairn: which MCP config-file layers load, whatever `settingSources` says (by default, as in the
   * reference SDK, MCP files load only for the layers `settingSources` names). For hosts that confirm
   * project servers themselves (the CLI): pass `['project', 'user']` with `trustProjectServer`.
   */
  mcpConfigFiles?: Array<'project' | 'user'>;
  /**
   * Cairn: asked before each project MCP server starts (with its config hash, so a host can remember
   * the answer and ask again when the config changes); false leaves the server out with a warning.
   * Without it, a loaded project layer's servers start (headless runs that asked for the project layer).
   */
  trustProjectServer?(server: McpProjectServer): boolean | Promise<boolean>;
  /**
   * Cairn: which hooks-file layers load, whatever `settingSources` says (by default, as for MCP, hook
   * files load only for the layers `settingSources` names; docs/hooks.md). For hosts that confirm
   * project hooks themselves (the CLI): pass `['project', 'user']` with `trustProjectHooks`.
   */
  hookConfigFiles?: Array<'project' | 'user'>;
  /**
   * Cairn: asked before the commands of each project hooks file run (with the file's config hash, so a
   * host can remember the answer and ask again when the file changes); false leaves the file's hooks
   * out with a warning. Without it, a loaded project layer's hooks run.
   */
  trustProjectHooks?(file: HookProjectFile): boolean | Promise<boolean>;
  sandboxOptions?: SandboxOptions;
  /**
   * Review each shell, MCP and web-fetch call with a model before it runs; a blocked call is
   * denied and the model reads why. `true` reviews with the agent's own model; the object form
   * (Cairn) names another model and the time limit. A review that fails or times out falls back to
   * the permission rules, and the run says so once. Best-effort, not a security boundary
   * (docs/permissions-and-sandbox.md, Auto-review).
   */
  autoReview?: boolean | AutoReviewOptions;
}

/** Cairn's object form of `local.autoReview`. */
export interface AutoReviewOptions {
  /** The reviewer's model (a small, fast one is enough). Default: the agent's model of the run. */
  model?: ModelSelection | string;
  /** Time limit of one review, retries included, in ms (default 30000); later the call follows the rules as usual. */
  timeoutMs?: number;
}

export interface AgentOptions {
  model?: ModelSelection | string;
  /**
   * Run this agent's sends in the background: each send's run is queued with this dispatcher (for
   * example `createRunQueue` of `@cairn/workers`) and executed by a worker of any machine sharing
   * the store; `send()` returns at once with a Run that streams, waits and cancels through the
   * store. Needs a store shared by the workers (`@cairn/store-postgres`). docs/background-agents.md.
   */
  background?: RunDispatcher;
  /** Create the agent under this id instead of a generated `agent-<uuid>` (must not exist yet). */
  agentId?: string;
  /**
   * Named subagents for the `task` tool, next to the built-in `generalPurpose` and `explore`; they
   * replace agent files (`.cairn/agents/*.md`, `.cursor/agents/*.md`, `.claude/agents/*.md`) of the
   * same name. Needs a registered task tool (`@cairn/sdk` registers it). Never stored: pass them
   * again on Agent.resume.
   */
  agents?: Record<string, AgentDefinition>;
  /**
   * MCP servers for every run of this handle (a send's own `mcpServers` replace them for that run),
   * checked here by the registered MCP plugin (`mcpPlugin()` of `@cairn/tools-mcp`; without one,
   * passing servers is a ConfigurationError). Started at the first run that uses them, shared by
   * the agent's runs, closed by `close()`. Never stored: pass them again on Agent.resume. Config
   * files add servers only for the layers `local.settingSources` names (docs/mcp.md).
   */
  mcpServers?: Record<string, McpServerConfig>;
  /** Cloud agents are out of Cairn's scope: passing it throws a ConfigurationError. */
  cloud?: Record<string, unknown>;
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
  /**
   * The registry this agent takes its models, tools, modes and named stores from, instead of the
   * Cairn instance's (`createRegistry([...plugins])`). Not stored with the agent: pass it again on
   * Agent.resume to keep using it.
   */
  registry?: Registry;
  /** When and how the conversation is compacted (SPEC section 6). Default: 80 % of the model's window. */
  compaction?: CompactionPolicy;
  /**
   * Typed in-process hooks for the events of SPEC section 9 (`preToolUse`, `stop`, ...). They run
   * after the file hooks of the same event (`.cursor/hooks.json`, `.claude/settings.json`,
   * `.cairn/hooks.json`, loaded for the layers `local.settingSources` names); the strictest answer
   * wins, and no hook's `allow` overrides a deny rule (docs/hooks.md). Not stored: pass them again
   * on Agent.resume.
   */
  hooks?: AgentHooks;
  /**
   * Cairn: how long one `hooks` callback may take before the run goes on without its answer (a
   * warning says so); its context's signal aborts then. Default 60 000 ms, as for command hooks,
   * whose own limit is the `timeout` of their entry in the hooks file.
   */
  hookTimeoutMs?: number;
  /**
   * Decides `switch_mode` requests that need approval (plan -> agent, or a mode with more rights
   * than the one the user chose) during a run. Without it and without `approvals: 'wait'`
   * (headless) such a switch is refused and the model is told why; the user can still switch with
   * `send(text, { mode: 'agent' })`, `send(text, { approvePlan: true })` or `agent.approvePlan()`.
   */
  approveModeSwitch?: ApproveModeSwitch;
  /**
   * What a run does when a call needs a person's approval (an `ask` rule, a mode switch, a plan):
   * `'deny'` (default without callbacks: headless runs deny with the reason) or `'wait'`: the run
   * moves to its awaitingApproval state, stores the request, and waits for `run.approve(callId, …)`
   * from any process sharing the store (and for `canUseTool` / `approveModeSwitch` when given).
   * The wait survives a restart: `Agent.resume` in a new process continues the waiting run.
   */
  approvals?: 'deny' | 'wait';
  /** With `approvals: 'wait'`: deny a request nobody answered within this many milliseconds. Default: no limit. */
  approvalTimeoutMs?: number;
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
  /**
   * Every fine-grained update, awaited before the next one (backpressure). Declared as a method so a
   * handler typed for the reference SDK's narrower update union is accepted too.
   */
  onDelta?(event: { update: InteractionUpdate }): void | Promise<void>;
  /** Called once per conversation step (an assistant message, a finished tool call, a thinking block), awaited. */
  onStep?(event: { step: ConversationStep }): void | Promise<void>;
  local?: { customTools?: Record<string, CustomTool>; force?: boolean };
  /**
   * MCP servers for this run only: they replace the agent's `mcpServers` (not merged); `{}` runs
   * without inline servers. Checked at send; never stored.
   */
  mcpServers?: Record<string, McpServerConfig>;
  /** Cloud agents are out of Cairn's scope: passing it throws a ConfigurationError. */
  cloud?: Record<string, unknown>;
  signal?: AbortSignal;
  maxSteps?: number;
  /**
   * Approve the plan `create_plan` proposed: its steps become the todo list and the run executes in
   * the approval target mode (agent), which stays the agent's mode. Default (undefined): approve when
   * this send leaves plan mode for agent mode while a plan is proposed; false: never. With no proposed
   * plan in the conversation, `true` changes nothing.
   */
  approvePlan?: boolean;
  /**
   * Background agents only: the run works in a clone of this git repository (made by the worker)
   * instead of the agent's folder, and its changes are committed and pushed to a branch, reported
   * as `run.git` (docs/background-agents.md).
   */
  workspace?: { git: GitWorkspace };
}

/** The reference SDK's name for the `local` options. */
export type LocalAgentOptions = LocalOptions;
