import { homedir } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import type { McpServerStatus } from '@cairn/core/spec';
import { describeCliError, exitCodeFor } from '../cli-errors.js';
import { type InspectedServers, inspectMcpServers } from './mcp-inspect.js';
import { trustHint } from './mcp-trust.js';
import { cliCairnHome, mcpTrustStore } from './mcp-trust-store.js';

export interface McpListOptions {
  cwd: string;
  json: boolean;
  timeoutMs: number;
  /** Ctrl+C: stop, close the servers that started, exit 130. */
  signal?: AbortSignal;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/** One server as `cairn mcp list --json` prints it: the connector's status plus the CLI's trust. */
export interface ListedServer extends McpServerStatus {
  /** For project servers: confirmed in this workspace (`cairn mcp trust`) or left out. */
  trusted?: boolean;
}

/**
 * `cairn mcp list`: the servers an agent in the workspace gets from config files (project servers
 * only once trusted, user servers), each started (with a time limit) to show its state and tools.
 * It never asks and never trusts anything: untrusted project servers are listed, not started.
 */
export async function runMcpListCommand(options: McpListOptions): Promise<number> {
  const store = mcpTrustStore(cliCairnHome(options.env));
  try {
    const inspected = await inspectMcpServers({
      cwd: options.cwd,
      env: options.env,
      projectServers: true,
      userServers: true,
      timeoutMs: options.timeoutMs,
      trust: (server) => store.isTrusted(options.cwd, server),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (inspected.cancelled) return cancelled(options.stderr);
    printInspected(inspected, options);
    return 0;
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}

/** Ctrl+C: the servers are closed already; the exit code of a shell's SIGINT. */
export function cancelled(stderr: NodeJS.WritableStream): number {
  stderr.write('[cancelled]\n');
  return 130;
}

/** Print the listing as text or JSON; shared with `cairn mcp trust`. */
export function printInspected(inspected: InspectedServers, options: Pick<McpListOptions, 'json' | 'timeoutMs' | 'stdout' | 'env'>): void {
  const servers = listedServers(inspected);
  if (options.json) {
    options.stdout.write(`${JSON.stringify({ workspace: inspected.workspace, servers, warnings: inspected.warnings, timedOut: inspected.timedOut }, null, 2)}\n`);
    return;
  }
  const out = (line: string) => options.stdout.write(`${line}\n`);
  if (servers.length === 0) {
    out(`No MCP servers are configured for ${inspected.workspace}.`);
    out('Declare them in .cairn/mcp.json, .cursor/mcp.json or .mcp.json (this project), or ~/.cairn/mcp.json, ~/.cursor/mcp.json (every project).');
  } else out(`MCP servers for ${inspected.workspace}:`);
  const home = options.env.HOME?.trim() || homedir();
  const rows = servers.map((server) => [server.name, server.file ? `${server.origin} ${displayPath(server.file, inspected.workspace, home)}` : server.origin, server.transport]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  servers.forEach((server, index) => {
    const columns = rows[index]!.map((cell, column) => cell.padEnd(widths[column]!));
    out(`${columns.join('  ')}  ${stateLabel(server, inspected, options.timeoutMs)}`);
    if (server.tools.length) out(`  tools: ${server.tools.join(', ')}`);
    if (server.trusted === false) out(`  not started: ${trustHint(inspected.workspace)}`);
    else if (server.error) out(`  error: ${server.error}`);
  });
  // Warnings about a listed server repeat its error; the rest (a broken config file...) are shown here.
  const listed = new Set(servers.map((server) => server.name));
  const other = inspected.warnings.filter((warning) => !listed.has(warning.server));
  for (const warning of other) out(`warning: ${warning.message}`);
}

function listedServers(inspected: InspectedServers): ListedServer[] {
  return inspected.servers.map((server) =>
    server.origin === 'project' ? { ...server, trusted: !inspected.untrusted.has(server.name) } : server,
  );
}

function stateLabel(server: ListedServer, inspected: InspectedServers, timeoutMs: number): string {
  if (server.trusted === false) return 'not trusted';
  if (server.state === 'starting' && inspected.timedOut) return `timed out (no answer within ${Math.round(timeoutMs / 1000)} s)`;
  if (server.state === 'ready') return `ready, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
  return server.state;
}

/** Workspace files relative to it, home files as `~/...`. */
function displayPath(file: string, workspace: string, home: string): string {
  if (!isAbsolute(file)) return file;
  for (const [root, prefix] of [[workspace, ''], [home, '~/']] as const) {
    const inside = relative(root, file);
    if (inside && !inside.startsWith('..') && !isAbsolute(inside)) return `${prefix}${inside}`;
  }
  return file;
}
