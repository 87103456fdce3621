import type { ToolDefinition } from '../../tool/v1/tool.js';

/** Cairn's extras on every MCP server config: time limits (the reference SDK has none). */
export interface McpServerLimits {
  /** How long connecting (and, for stdio, starting the process) may take. Default 60 s: long enough for `npx -y` to download a server. */
  startupTimeoutMs?: number;
  /** How long one tool call may take before it is cancelled with an error result. Default 120 s. */
  callTimeoutMs?: number;
}

/** A server started as a child process, spoken to over its stdin/stdout. */
export interface McpStdioServerConfig extends McpServerLimits {
  type?: 'stdio';
  command: string;
  args?: string[];
  /** Added to the child's environment (which never inherits provider API keys unless named here). */
  env?: Record<string, string>;
  /** Working folder of the child; default the agent's workspace. */
  cwd?: string;
}

/** A remote server: streamable HTTP (`http`, the default for a `url`) or the legacy SSE transport (`sse`). */
export interface McpRemoteServerConfig extends McpServerLimits {
  type?: 'http' | 'sse';
  url: string;
  /** Sent with every request, unchanged (an `Authorization` header here works). */
  headers?: Record<string, string>;
  /** OAuth client settings, as the reference SDK declares them. */
  auth?: { CLIENT_ID: string; CLIENT_SECRET?: string; scopes?: string[] };
}

/** An MCP server, as the reference SDK declares one (stdio, or HTTP / SSE), plus Cairn's limits. */
export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

/**
 * Where a server's config came from, highest precedence first: `send` (mcpServers on send()),
 * `create` (on Agent.create()), `project` and `user` (config files), `in-process` (custom tools).
 */
export type McpServerOrigin = 'send' | 'create' | 'project' | 'user' | 'in-process';

export type McpServerState = 'starting' | 'ready' | 'failed' | 'closed';

/** What `cairn mcp list` and UIs show for one server. */
export interface McpServerStatus {
  name: string;
  origin: McpServerOrigin;
  transport: 'stdio' | 'http' | 'sse' | 'in-process';
  state: McpServerState;
  /** The model-facing names of its tools, as offered now. */
  tools: string[];
  /** Why it failed, for `failed`. */
  error?: string;
  /** The config file it came from, for `project` and `user` servers. */
  file?: string;
}

/** A project server the trust check is asked about. */
export interface McpProjectServer {
  name: string;
  config: McpServerConfig;
  /** The project file that declares it. */
  file: string;
  /** Hash of the server's config: any change to it (command, args, env, url) is a new hash. */
  hash: string;
}

/** A server that could not be used: one warning per server, the run goes on without its tools. */
export interface McpWarning {
  server: string;
  message: string;
}

/** What opening an agent's MCP session is given. */
export interface McpSessionOptions {
  agentId: string;
  /** Canonical workspace root: project config files are read here; stdio servers start here. */
  cwd: string;
  /** The agent's environment: `${env:VAR}` / `${VAR}` in configs expand from it. */
  env: Record<string, string | undefined>;
  /** Load the project config files (`.cairn/mcp.json`, `.cursor/mcp.json`, `.mcp.json`). True only when the project layer was asked for. */
  projectServers: boolean;
  /** Load the user config files (`~/.cairn/mcp.json`, `~/.cursor/mcp.json`). */
  userServers: boolean;
  /** The user's home folder and Cairn's home (`$CAIRN_HOME`, default `~/.cairn`), for the user files. */
  homeDir: string;
  cairnHome: string;
  /**
   * Asked before a project server is started; false leaves it out with a warning. Absent: project
   * servers start whenever `projectServers` is true (headless runs that asked for the project layer).
   * The CLI answers from the workspace's remembered confirmations (by `hash`).
   */
  trustProjectServer?(server: McpProjectServer): boolean | Promise<boolean>;
}

/** The MCP servers one run uses. */
export interface McpRunServers {
  /** The MCP tools to offer at this step: a server's `tools/list_changed` takes effect at the next call. */
  tools(): readonly ToolDefinition[];
}

/** Requested per run: which inline servers (the send's, else the creation-time ones) join the file servers. */
export interface McpRunRequest {
  /** `mcpServers` of the send, else of Agent.create (a send's set replaces the creation-time set, not merged). */
  inline: Record<string, McpServerConfig> | undefined;
  /** Where `inline` came from, for statuses: the send's set (`send`) or the creation-time one (`create`, the default). */
  inlineOrigin?: 'send' | 'create';
  signal: AbortSignal;
  /** A server failed to start or was left out: said once per server and run, as a `warning` update. */
  warn(warning: McpWarning): void;
}

/**
 * An agent's MCP servers. Servers start once per agent (on the first run that uses them) and are
 * shared by its runs; inline servers over project over user servers, by name.
 */
export interface McpSession {
  /** Start the servers this run needs (those not running yet) and return them; failures are warnings, never errors. */
  forRun(request: McpRunRequest): Promise<McpRunServers>;
  /** Every server the session knows, with its state. */
  status(): McpServerStatus[];
  /** Read the config files again: changed or removed file servers are restarted or closed at the next run. */
  reload(): Promise<void>;
  /** Close every server; no child process is left behind. */
  close(): Promise<void>;
}

/** What a plugin provides to give agents MCP servers (`@cairn/tools-mcp`). */
export interface McpConnector {
  /** Checks a config object and returns a ConfigurationError message naming the problem, or undefined when it is usable. */
  configProblem(name: string, config: unknown): string | undefined;
  open(options: McpSessionOptions): McpSession;
}
