import { homedir } from 'node:os';
import { cairnHome } from '../config/workspace-config.js';
import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { McpConnector, McpProjectServer, McpRunServers, McpServerConfig, McpSession, McpSessionOptions, McpWarning } from '../spec/mcp/v1/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import { type RunToolList, runToolList } from './run-mcp-tools.js';

/** `mcpServers` of the send and of the agent (Agent.create or Agent.resume). */
export interface RunInlineServers {
  send: Record<string, McpServerConfig> | undefined;
  agent: Record<string, McpServerConfig> | undefined;
}

/**
 * The MCP servers of one agent handle: one session (servers start once and are shared by the
 * agent's runs), opened at the first run that can have servers. A run with no inline servers and
 * no config-file layer never opens it, so an agent without MCP never loads the MCP SDK.
 */
export class AgentMcp {
  private session: McpSession | undefined;
  private closed = false;

  constructor(
    private readonly connector: McpConnector | undefined,
    private readonly options: McpSessionOptions,
  ) {}

  /** The servers `local.settingSources` (or Cairn's `local.mcpConfigFiles`) asks for: as in the reference SDK, none from files without either. */
  static for(registry: Registry, agentId: string, cwd: string, options: Pick<AgentOptions, 'env' | 'local'>): AgentMcp {
    const env = options.env ?? process.env;
    const sources = options.local?.settingSources ?? [];
    const files = options.local?.mcpConfigFiles ?? [];
    const layer = (name: 'project' | 'user') => files.includes(name) || sources.includes(name) || sources.includes('all');
    const trust = options.local?.trustProjectServer;
    return new AgentMcp(registry.mcp(), {
      agentId,
      cwd,
      env,
      projectServers: layer('project'),
      userServers: layer('user'),
      homeDir: env.HOME?.trim() || homedir(),
      cairnHome: cairnHome(env),
      ...(trust ? { trustProjectServer: (server: McpProjectServer) => trust(server) } : {}),
    });
  }

  /**
   * Start what one run needs and return its servers; undefined when the run can have none. The run's
   * inline servers are the send's (`servers.send`) when it gave some, else the agent's. A server that
   * fails is a warning, never an error; a session that fails as a whole is one warning too, and the
   * run goes on without MCP. A cancel while servers start gives undefined: the run ends as cancelled.
   */
  async forRun(servers: RunInlineServers, signal: AbortSignal, warn: (warning: McpWarning) => void): Promise<McpRunServers | undefined> {
    if (!this.connector || this.closed) return undefined;
    const inline = servers.send ?? servers.agent;
    const hasInline = inline !== undefined && Object.keys(inline).length > 0;
    if (!this.session && !hasInline && !this.options.projectServers && !this.options.userServers) return undefined;
    this.session ??= this.connector.open(this.options);
    try {
      return await this.session.forRun({ inline, inlineOrigin: servers.send ? 'send' : 'create', signal, warn });
    } catch (error) {
      if (signal.aborted) return undefined;
      warn({ server: '', message: `MCP servers could not be started: ${error instanceof Error ? error.message : String(error)}. The run goes on without their tools.` });
      return undefined;
    }
  }

  /**
   * A run's tools: `fixed` (the registry's and the custom tools), then its MCP servers' tools, read
   * again at every step. `warn` undefined: the run uses no MCP servers (its settings failed).
   */
  async runTools(fixed: ToolDefinition[], servers: RunInlineServers, signal: AbortSignal, warn: ((warning: McpWarning) => void) | undefined): Promise<RunToolList> {
    return runToolList(fixed, warn && (await this.forRun(servers, signal, warn)));
  }

  /** Read the MCP config files again (agent.reload()); changed servers restart at the next run. */
  async reload(): Promise<void> {
    await this.session?.reload();
  }

  /** Close every server of the agent (agent.close(), `await using`): no child process is left. */
  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    await session?.close();
  }
}

/**
 * Check `mcpServers` (Agent.create, Agent.resume, send) with the registry's MCP connector: a bad
 * config is a ConfigurationError naming the server, and servers without an MCP plugin are refused
 * rather than silently ignored.
 */
export function assertMcpServers(registry: Registry, servers: unknown, where: string): void {
  if (servers === undefined) return;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new ConfigurationError(`${where}: mcpServers must be an object that maps each server name to its config, e.g. { docs: { url: "https://example.com/mcp" } }.`);
  }
  const entries = Object.entries(servers);
  if (entries.length === 0) return;
  const connector = registry.mcp();
  if (!connector) {
    throw new ConfigurationError(
      `${where}: mcpServers (${entries.map(([name]) => name).join(', ')}) needs an MCP plugin, and none is registered. Register mcpPlugin() of @cairn/tools-mcp (the @cairn/sdk registers it by default).`,
    );
  }
  for (const [name, config] of entries) {
    const problem = connector.configProblem(name, config);
    if (problem) throw new ConfigurationError(`${where}: MCP server "${name}" in mcpServers cannot be used: ${problem}`);
  }
}

/** Check Cairn's MCP extras of `local`: `mcpConfigFiles` names layers, `trustProjectServer` is a function. */
export function assertMcpLocalOptions(local: AgentOptions['local'], where: string): void {
  const files: unknown = local?.mcpConfigFiles;
  if (files !== undefined && !(Array.isArray(files) && files.every((layer) => layer === 'project' || layer === 'user'))) {
    throw new ConfigurationError(`${where}: local.mcpConfigFiles must be an array of "project" and "user" (the MCP config-file layers to load), got ${JSON.stringify(files)}.`);
  }
  const trust: unknown = local?.trustProjectServer;
  if (trust !== undefined && typeof trust !== 'function') {
    throw new ConfigurationError(`${where}: local.trustProjectServer must be a function (server) => boolean | Promise<boolean>.`);
  }
}
