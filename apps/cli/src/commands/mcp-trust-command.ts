import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeCliError, exitCodeFor } from '../cli-errors.js';
import { inspectMcpServers } from './mcp-inspect.js';
import { cancelled, printInspected } from './mcp-list-command.js';
import { cliTrustProjectServer, terminalAsk } from './mcp-trust.js';
import { cliCairnHome, mcpTrustStore } from './mcp-trust-store.js';

export interface McpTrustOptions {
  cwd: string;
  /** Trust every project server not trusted yet without asking (for scripts, after reading the files). */
  yes: boolean;
  json: boolean;
  timeoutMs: number;
  /** Ctrl+C: stop, close the servers that started, exit 130. */
  signal?: AbortSignal;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/**
 * `cairn mcp trust`: asks about each of the workspace's project servers not trusted yet (or trusts
 * them all with `--yes`), remembers the answers, then starts the trusted ones and lists them. User
 * servers are not started here: they need no trust.
 */
export async function runMcpTrustCommand(options: McpTrustOptions): Promise<number> {
  const ask = terminalAsk(options.stdin, options.stderr);
  const store = mcpTrustStore(cliCairnHome(options.env));
  // Without a terminal and without --yes nothing can be confirmed: list what would need trust and say how.
  const trust = ask || options.yes
    ? cliTrustProjectServer({ cwd: options.cwd, env: options.env, stderr: options.stderr, store, yes: options.yes, ...(ask ? { ask } : {}) })
    : (server: { name: string; hash: string }) => store.isTrusted(options.cwd, server);
  try {
    const inspected = await inspectMcpServers({
      cwd: options.cwd, env: options.env, projectServers: true, userServers: false, timeoutMs: options.timeoutMs, trust,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (inspected.cancelled) return cancelled(options.stderr);
    printInspected(inspected, options);
    if (inspected.untrusted.size === 0) return 0;
    if (!ask && !options.yes) {
      options.stderr.write('cairn mcp trust: no terminal to confirm on. Read the servers above in their files, then pass --yes to trust them all.\n');
      return 2;
    }
    return 0;
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}

export interface McpUntrustOptions {
  cwd: string;
  names: string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

/** `cairn mcp untrust [names...]`: forget the confirmations of a workspace (all, or the named servers). */
export async function runMcpUntrustCommand(options: McpUntrustOptions): Promise<number> {
  const store = mcpTrustStore(cliCairnHome(options.env));
  try {
    const forgotten = await store.forget(options.cwd, options.names);
    const workspace = await realpath(resolve(options.cwd)).catch(() => resolve(options.cwd));
    if (forgotten.length === 0) {
      options.stdout.write(`${options.names.length ? `None of ${options.names.join(', ')} is` : 'No MCP servers are'} trusted in ${workspace}.\n`);
      return options.names.length ? 1 : 0;
    }
    options.stdout.write(`Forgot ${forgotten.join(', ')} in ${workspace}: cairn will ask again before starting ${forgotten.length === 1 ? 'it' : 'them'}.\n`);
    return 0;
  } catch (error) {
    options.stderr.write(`${describeCliError(error)}\n`);
    return exitCodeFor(error);
  }
}
