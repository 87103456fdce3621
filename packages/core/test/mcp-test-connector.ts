import type { McpConnector, McpRunRequest, McpServerConfig, McpSessionOptions, McpWarning, ToolDefinition } from '../src/index.js';

/**
 * An in-test MCP connector: "servers" are named lists of tools kept in memory, no process and no
 * JSON-RPC. An inline config `{ command: 'fake' }` (or `{ url }`) under a name in `servers` gives
 * that server's tools; `fileServers` are what the project layer would load. Everything the agent
 * asks of it is recorded, so tests can check what core calls and when.
 */
export interface TestConnector extends McpConnector {
  /** The tools of each known server; replace an entry to simulate `tools/list_changed`. */
  servers: Map<string, ToolDefinition[]>;
  /** Servers the project config files would give (used only when `projectServers` is true). */
  fileServers: string[];
  /** Servers whose start fails: forRun warns for them. */
  failing: Set<string>;
  opened: McpSessionOptions[];
  runs: Array<{ inline: string[] | undefined; origin: McpRunRequest['inlineOrigin']; signal: AbortSignal }>;
  reloads: number;
  closes: number;
  /** When set, forRun waits for it (or the run's cancel) before it answers. */
  gate?: Promise<void>;
}

export function testConnector(servers: Record<string, ToolDefinition[]> = {}): TestConnector {
  const connector: TestConnector = {
    servers: new Map(Object.entries(servers)),
    fileServers: [],
    failing: new Set(),
    opened: [],
    runs: [],
    reloads: 0,
    closes: 0,
    configProblem(name: string, config: unknown) {
      const given = config as Partial<McpServerConfig> | null;
      if (typeof given !== 'object' || given === null || !('command' in given || 'url' in given)) return `"${name}" needs a command (stdio) or a url.`;
      return undefined;
    },
    open(options: McpSessionOptions) {
      connector.opened.push(options);
      return {
        async forRun(request: McpRunRequest) {
          connector.runs.push({ inline: request.inline ? Object.keys(request.inline) : undefined, origin: request.inlineOrigin, signal: request.signal });
          if (connector.gate) await Promise.race([connector.gate, aborted(request.signal)]);
          request.signal.throwIfAborted();
          const names = [...Object.keys(request.inline ?? {}), ...(options.projectServers ? connector.fileServers : [])];
          const usable = names.filter((name) => !connector.failing.has(name) || warn(request.warn, { server: name, message: `MCP server "${name}" failed to start: it exited at once` }));
          return { tools: () => usable.flatMap((name) => connector.servers.get(name) ?? []) };
        },
        status: () => [],
        async reload() {
          connector.reloads++;
        },
        async close() {
          connector.closes++;
        },
      };
    },
  };
  return connector;
}

function warn(to: (warning: McpWarning) => void, warning: McpWarning): false {
  to(warning);
  return false;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}

/** A tool as an MCP server's would look once mapped: `mcp__<server>__<tool>`, category mcp. */
export function mcpTool(server: string, tool: string, options: { readOnly?: boolean; log?: string[] } = {}): ToolDefinition {
  const name = `mcp__${server}__${tool}`;
  return {
    id: name,
    name,
    description: `${tool} of ${server}`,
    inputSchema: { jsonSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    readOnly: options.readOnly ?? false,
    category: 'mcp',
    execute: (input: { text?: string }) => {
      options.log?.push(`${name}:${input.text ?? ''}`);
      return `${tool} said ${input.text ?? ''}`;
    },
  };
}
