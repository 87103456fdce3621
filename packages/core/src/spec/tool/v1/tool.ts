import type { InteractionUpdate } from '../../events/v1/events.js';
import type { JSONSchema, JSONValue } from '../../json.js';

/** Tool ids used by `tools` / `disallowedTools` / permission rules (SPEC section 3). */
export type BuiltInToolId =
  | 'read' | 'write' | 'edit' | 'delete' | 'ls' | 'glob' | 'grep' | 'semSearch' | 'shell' | 'webFetch' | 'webSearch'
  | 'todo' | 'plan' | 'switchMode' | 'lints' | 'notebook' | 'task';
/** A tool id, a group id (`shell`, `mcp`) or a model-facing name. */
export type ToolName = BuiltInToolId | 'mcp' | (string & {});

export type ToolCategory = 'fs' | 'search' | 'shell' | 'web' | 'planning' | 'notebook' | 'lints' | 'mcp' | 'custom' | 'task';

/** What a tool may return: a string, any JSON value, or explicit content with an error flag. */
export type ToolResult = string | JSONValue | ToolResultContent;

export interface ToolResultContent {
  content: Array<{ type: 'text'; text: string } | ToolResultImage>;
  isError?: boolean;
  /** Machine-readable result for UIs and callers; the model sees `content`. */
  structuredContent?: JSONValue;
  /** True when the tool cut its output (the model was told how to read more). */
  truncated?: boolean;
}

/**
 * A base64 image in a tool result. `mimeType` is the documented name, `mediaType` Cairn's earlier
 * one; with neither, the type is detected from the bytes (PNG, JPEG, GIF, WebP).
 */
export interface ToolResultImage {
  type: 'image';
  data: string;
  mimeType?: string;
  mediaType?: string;
}

/** A standard-schema-like validator (zod v4 satisfies it) or plain JSON Schema. */
export interface ZodLikeSchema<T = unknown> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string; issues?: unknown[] } };
  /** zod v4 schemas carry `_zod`; core converts them with `z.toJSONSchema`. */
  _zod?: unknown;
}

export type ToolInputSchema<T = unknown> = ZodLikeSchema<T> | { jsonSchema: JSONSchema };

/** One file change made by a tool, recorded for checkpoints and rewind. `null` content = absent. */
export interface FileChange {
  /** Absolute, canonical path. */
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

/** Everything a tool gets from the runtime. */
export interface ToolExecutionContext {
  toolCallId: string;
  agentId: string;
  runId: string;
  /** Canonical absolute workspace root; every path must stay inside it. */
  cwd: string;
  mode: string;
  /** Aborts on cancel, on timeout and when the run ends. */
  signal: AbortSignal;
  /** Streams an update to the run (shell output, todo changes). */
  emit(update: InteractionUpdate): void;
  /** Run-scoped state shared between tools (todos, plan, read timestamps), persisted with the checkpoint. */
  state: ToolStateAccess;
  /** Call after every file change so checkpoints, rewind, hooks and the index see it. */
  recordFileChange(change: FileChange): Promise<void>;
  /** The OS sandbox profile this call must run in, when the mode or options require one. */
  sandbox: SandboxRequirement;
  /** Permission-engine check for paths a tool discovers itself (grep/glob results, deny rules). */
  isPathDenied(absolutePath: string, toolId: string): boolean;
  /**
   * The existing files and folders the read deny rules hide (globs expanded, `~` resolved, hard
   * links included; `complete: false` when the search hit its limit), for tools that must enforce
   * the rules below the file level: the shell makes them unreadable in the commands it runs.
   */
  readDeniedFiles?(): Promise<{ paths: string[]; complete: boolean }>;
  /**
   * For tools that run a program from the workspace (read_lints runs the workspace's tsc): may the
   * shell run `command` in this call? The answer the shell tool would get (allow/deny lists, the
   * mode's shell policy, permission rules, `ask` through canUseTool; headless: deny). Run only on
   * `allow`, and only as `sandbox` says. A host that does not provide it gets no program run.
   */
  checkShellCommand?(command: string): Promise<{ decision: 'allow' | 'deny'; reason: string }>;
  /** Settings contributed by the agent's options for tools (`toolSettings[toolId]`). */
  settings: Record<string, unknown>;
  /** The environment the agent was created with (secrets are stripped by the shell tool). */
  env: Record<string, string | undefined>;
}

export interface SandboxRequirement {
  /** `none` = run on the host; `read-only` and `workspace-write` require an OS sandbox. */
  profile: 'none' | 'read-only' | 'workspace-write';
  /** Hosts the sandbox lets through; empty = network off. */
  networkAllow: string[];
  /** When true and no sandbox is available, the call must fail with a ConfigurationError. */
  required: boolean;
}

export interface ToolStateAccess {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export interface ToolDefinition<Input = any> {
  /** Id for rules and allow-lists, e.g. `read`, `edit`, `shell`; several tools may share one (edit). */
  id: string;
  /** Model-facing name, e.g. `read_file`. */
  name: string;
  description: string;
  inputSchema: ToolInputSchema<Input>;
  /**
   * True when the tool cannot change the workspace or the world. The one flag modes read: a
   * read-only tool is offered in plan and ask, whatever its category (custom and MCP tools too).
   */
  readOnly: boolean;
  category: ToolCategory;
  /** Default per-call timeout; the runtime aborts `signal` when it passes. */
  timeoutMs?: number;
  /**
   * @deprecated Set `readOnly`, the flag modes read. Kept so older tool packs type-check; the
   * registry refuses a tool whose `readOnlyHint` differs from its `readOnly`. Where MCP tools are
   * built, the server's `readOnlyHint` annotation becomes `readOnly`.
   */
  readOnlyHint?: boolean;
  /** Offer the tool only when this returns true (e.g. web_search without a backend). */
  isEnabled?(context: { cwd: string; settings: Record<string, unknown> }): boolean;
  /** What to configure when `isEnabled` is false, for the error a `tools` allow-list naming it gets. */
  setupHint?: string;
  /**
   * The path(s) a call touches, for permission rules like `edit(src/**)` and protected paths.
   * Returned paths may be relative to cwd.
   */
  paths?(input: Input): string[];
  /** The text a `shell(...)` or `webFetch(...)` rule matches against. */
  ruleSubject?(input: Input): string | undefined;
  execute(input: Input, context: ToolExecutionContext): Promise<ToolResult> | ToolResult;
}

/**
 * The user-facing shape of `local.customTools` entries: the reference SDK's `SDKCustomTool` (a plain
 * JSON Schema, or none for a tool without arguments) plus Cairn's extras: a zod v4 schema or
 * `{ jsonSchema }`, `readOnly` and `timeoutMs`.
 */
export interface CustomTool<Input = any> {
  description?: string;
  inputSchema?: ToolInputSchema<Input> | JSONSchema;
  /** Offered in read-only modes (as the MCP `readOnlyHint`). Default false. */
  readOnly?: boolean;
  /** Per-call timeout; the runtime aborts `context.signal` when it passes. */
  timeoutMs?: number;
  execute(input: Input, context: ToolExecutionContext): Promise<ToolResult> | ToolResult;
}
