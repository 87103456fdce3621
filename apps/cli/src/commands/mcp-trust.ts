import { isAbsolute, relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { McpProjectServer, McpServerConfig } from '@cairn/core/spec';
import { cliCairnHome, type McpTrustStore, mcpTrustStore } from './mcp-trust-store.js';

/** Asks one question on the user's terminal and resolves with the typed answer. */
export type AskQuestion = (question: string) => Promise<string>;

export interface CliTrustOptions {
  /** The workspace whose project servers are asked about. */
  cwd: string;
  /** For `$CAIRN_HOME`, where the answers are remembered. */
  env: Record<string, string | undefined>;
  /** Where the "left out" notice goes. */
  stderr: NodeJS.WritableStream;
  /** Where the user answers: asked on when it is a terminal (see `terminalAsk`), never read when it is piped. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** How to ask the user (instead of `stdin`, e.g. a chat's own prompt); with neither, nothing new is ever trusted. */
  ask?: AskQuestion;
  /** Answer yes to every server not trusted yet, without asking (`cairn mcp trust --yes`). */
  yes?: boolean;
  store?: McpTrustStore;
}

/**
 * The `local` options of the CLI's agents for MCP: the project and user MCP config files load (the
 * CLI confirms project servers itself, unlike headless SDK runs, which need settingSources), and each
 * project server goes through `cliTrustProjectServer`.
 */
export function cliMcpLocalOptions(options: CliTrustOptions) {
  return { mcpConfigFiles: ['project', 'user'] as Array<'project' | 'user'>, trustProjectServer: cliTrustProjectServer(options) };
}

/** How a user trusts a workspace's project servers without a terminal to answer on. */
export const trustHint = (cwd: string) => `review and trust the workspace's project servers with: cairn mcp trust --cwd ${quoteIfNeeded(cwd)}`;

/**
 * The CLI's `trustProjectServer` for an agent's MCP session: yes for a server whose exact config was
 * confirmed before in this workspace; otherwise asks on the terminal (one question at a time, even
 * when the session asks about several servers at once) and remembers a yes. Without a terminal it
 * never trusts silently: the server is left out and the user is told how to trust it.
 */
export function cliTrustProjectServer(options: CliTrustOptions): (server: McpProjectServer) => Promise<boolean> {
  const store = options.store ?? mcpTrustStore(cliCairnHome(options.env));
  const ask = options.ask ?? (options.stdin ? terminalAsk(options.stdin, options.stderr) : undefined);
  let queue: Promise<unknown> = Promise.resolve();
  const decide = async (server: McpProjectServer): Promise<boolean> => {
    const previous = await store.lookup(options.cwd, server.name);
    if (previous?.hash === server.hash) return true;
    const file = displayFile(options.cwd, server.file);
    if (!options.yes && !ask) {
      options.stderr.write(`cairn: project MCP server "${server.name}" (${file}) is ${previous ? 'changed since it was trusted' : 'not trusted'} in this workspace and was left out; ${trustHint(options.cwd)}\n`);
      return false;
    }
    const yes = options.yes || isYes(await ask!(trustQuestion(server, file, previous !== undefined)));
    if (yes) await store.trust(options.cwd, { name: server.name, hash: server.hash, file: server.file });
    return yes;
  };
  return (server) => {
    const answer = queue.then(() => decide(server));
    queue = answer.catch(() => undefined);
    return answer.catch((error: unknown) => {
      // A question cancelled with the run (Ctrl+C in a chat) is a no that needs no explanation.
      if ((error as Error | undefined)?.name === 'AbortError') return false;
      // A damaged trust file must not stop the run: the server is left out and the user told why.
      options.stderr.write(`cairn: project MCP server "${server.name}" was left out: ${error instanceof Error ? error.message : String(error)}\n`);
      return false;
    });
  };
}

/**
 * Ask on the terminal when stdin is one; undefined (never trust new servers) when input is piped.
 * Ctrl+C or the end of input while asking answers no, rather than leaving the question open.
 */
export function terminalAsk(stdin: NodeJS.ReadableStream & { isTTY?: boolean }, output: NodeJS.WritableStream): AskQuestion | undefined {
  if (!stdin.isTTY) return undefined;
  return async (question) => {
    const readline = createInterface({ input: stdin, output, terminal: true });
    const stop = new AbortController();
    readline.on('SIGINT', () => stop.abort());
    readline.on('close', () => stop.abort());
    try {
      return await readline.question(question, { signal: stop.signal });
    } catch {
      output.write('\n');
      return '';
    } finally {
      readline.close();
    }
  };
}

const isYes = (answer: string) => /^\s*y(es)?\s*$/i.test(answer);

/** What the user needs to judge a server: what it runs or where it connects; env and header names only (they may hold secrets). */
export function describeServer(config: McpServerConfig): string[] {
  if ('command' in config) {
    const lines = [`command: ${[config.command, ...(config.args ?? [])].map(quoteIfNeeded).join(' ')}`];
    if (config.cwd) lines.push(`cwd: ${config.cwd}`);
    if (config.env && Object.keys(config.env).length) lines.push(`env: ${Object.keys(config.env).join(', ')}`);
    return lines;
  }
  const lines = [`${config.type ?? 'http'}: ${config.url}`];
  if (config.headers && Object.keys(config.headers).length) lines.push(`headers: ${Object.keys(config.headers).join(', ')}`);
  return lines;
}

function trustQuestion(server: McpProjectServer, file: string, changed: boolean): string {
  const intro = changed
    ? `The MCP server "${server.name}" in ${file} changed since you trusted it:`
    : `This workspace's ${file} declares the MCP server "${server.name}":`;
  const details = describeServer(server.config).map((line) => `  ${line}`);
  return [intro, ...details, 'Start it, and trust this exact configuration in this workspace from now on? [y/N] '].join('\n');
}

function displayFile(cwd: string, file: string): string {
  if (!isAbsolute(file)) return file;
  const inside = relative(cwd, file);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file;
}

function quoteIfNeeded(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}
