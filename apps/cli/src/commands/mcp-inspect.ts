import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { McpConnector, McpProjectServer, McpServerStatus, McpWarning } from '@cairn/core/spec';
import { cliCairnHome } from './mcp-trust-store.js';

export interface InspectOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Which config layers to read: the CLI's agents read both. */
  projectServers: boolean;
  userServers: boolean;
  /** Answers the session's "start this project server?"; every no is recorded as not trusted. */
  trust(server: McpProjectServer): Promise<boolean>;
  /** How long starting the servers may take in all before the listing is printed as it stands. */
  timeoutMs: number;
  /** Ctrl+C: stop waiting and close what started. */
  signal?: AbortSignal;
}

export interface InspectedServers {
  /** The canonical workspace the servers were read for. */
  workspace: string;
  servers: McpServerStatus[];
  warnings: McpWarning[];
  /** Project servers that were left out because they are not trusted (by name). */
  untrusted: Map<string, McpProjectServer>;
  /** The time limit ended the start-up: servers still `starting` did not answer in time. */
  timedOut: boolean;
  /** `signal` ended it. */
  cancelled: boolean;
}

/**
 * Start the servers an agent in `cwd` would get from config files, through the public connector
 * (`open`, `forRun` with no inline servers, `status`, `close`), and report what happened. Always
 * closes the session: no server process outlives the command.
 */
export async function inspectMcpServers(options: InspectOptions): Promise<InspectedServers> {
  const connector = await loadMcpConnector();
  const workspace = await realpath(resolve(options.cwd)).catch(() => resolve(options.cwd));
  const untrusted = new Map<string, McpProjectServer>();
  const warnings: McpWarning[] = [];
  const session = connector.open({
    agentId: 'cairn-mcp-cli',
    cwd: workspace,
    env: options.env,
    projectServers: options.projectServers,
    userServers: options.userServers,
    homeDir: options.env.HOME?.trim() || homedir(),
    cairnHome: cliCairnHome(options.env),
    trustProjectServer: async (server) => {
      const trusted = await options.trust(server);
      if (!trusted) untrusted.set(server.name, server);
      return trusted;
    },
  });
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    try {
      await session.forRun({ inline: undefined, signal, warn: (warning) => warnings.push(warning) });
    } catch (error) {
      // The session honours the signal by giving up; the servers' states still say how far they got.
      if (!signal.aborted) throw error;
    }
    const cancelled = options.signal?.aborted ?? false;
    return { workspace, servers: session.status(), warnings, untrusted, timedOut: timeout.aborted && !cancelled, cancelled };
  } finally {
    await session.close();
  }
}

/** The connector of `@cairn/tools-mcp`, loaded only by the commands that start servers. */
async function loadMcpConnector(): Promise<McpConnector> {
  const { mcpPlugin } = await import('@cairn/tools-mcp');
  const connector = mcpPlugin().mcp;
  if (!connector) throw new Error('@cairn/tools-mcp did not provide an MCP connector; reinstall cairn.');
  return connector;
}
