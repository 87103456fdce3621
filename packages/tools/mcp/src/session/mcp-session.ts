import type { McpRunRequest, McpRunServers, McpServerConfig, McpServerStatus, McpSession, McpSessionOptions } from '@cairn/core';
import { type FileServers, loadFileServers } from '../config/file-servers.js';
import { declareServer, type ServerDeclaration } from '../config/server-declaration.js';
import { type ConnectionFactory, ConnectionPool, connectionKey, type PooledConnection } from './connection-pool.js';
import { chooseRunServers, RunWarnings, runServers } from './run-servers.js';
import { serverStatus } from './server-status.js';
import { TrustGate } from './trust-gate.js';
import { untilAborted } from '../connection/until-aborted.js';

export interface McpSessionDependencies {
  /** Makes a server's connection. Default: `createMcpConnection`, loaded when the first server starts. */
  createConnection?: ConnectionFactory;
}

/** Opens an agent's MCP session. Nothing is read or started until the first run (or `reload()`). */
export function openMcpSession(options: McpSessionOptions, dependencies: McpSessionDependencies = {}): McpSession {
  return new AgentMcpSession(options, dependencies);
}

class AgentMcpSession implements McpSession {
  private readonly pool: ConnectionPool;
  private readonly trust: TrustGate;
  private files: Promise<FileServers> | undefined;
  private loadedFiles: FileServers | undefined;
  /** The inline servers of the latest run, for `status()`. */
  private latestInline: ServerDeclaration[] = [];
  private connectionFactory: Promise<ConnectionFactory> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly options: McpSessionOptions,
    private readonly dependencies: McpSessionDependencies,
  ) {
    this.pool = new ConnectionPool({ cwd: options.cwd, env: options.env });
    this.trust = new TrustGate(options.trustProjectServer);
  }

  async forRun(request: McpRunRequest): Promise<McpRunServers> {
    this.assertOpen();
    request.signal.throwIfAborted();
    const files = await untilAborted((this.files ??= this.loadFiles()), request.signal);
    const inline = this.declareInline(request.inline, request.inlineOrigin ?? 'create');
    this.latestInline = inline;
    const warnings = new RunWarnings(request.warn);
    for (const problem of files.fileProblems) warnings.add('', problem);
    const usable = await this.usableServers(chooseRunServers(inline, files.declarations), warnings, request.signal);
    if (usable.length === 0) return runServers([]);
    const createConnection = await untilAborted(this.loadConnectionFactory(), request.signal);
    this.assertOpen();
    const entries = this.acquireAll(usable, createConnection, warnings);
    await untilAborted(Promise.all(entries.map((entry) => entry.started)), request.signal);
    const running = entries.filter((entry) => {
      if (entry.connection.state !== 'failed') return true;
      warnings.add(entry.declaration.name, startFailure(entry));
      return false;
    });
    return runServers(running);
  }

  status(): McpServerStatus[] {
    const declarations = chooseRunServers(this.latestInline, this.loadedFiles?.declarations ?? []);
    return declarations.map((declaration) => serverStatus(declaration, this.pool.find(declaration), this.trust.answerFor(declaration)));
  }

  async reload(): Promise<void> {
    if (this.closing) return;
    const files = await this.loadFiles();
    this.files = Promise.resolve(files);
    this.trust.forget();
    const current = new Set(files.declarations.filter((declaration) => declaration.config !== undefined).map(connectionKey));
    // Changed and removed file servers close now and start again at their next use; failed ones are retried then.
    await this.pool.retain((entry) => entry.connection.state !== 'failed' && (!isFileOrigin(entry) || current.has(entry.key)));
  }

  close(): Promise<void> {
    this.closing ??= this.pool.closeAll();
    return this.closing;
  }

  private async loadFiles(): Promise<FileServers> {
    const { cwd, homeDir, cairnHome, projectServers, userServers, env } = this.options;
    const files = await loadFileServers({ cwd, homeDir, cairnHome, projectServers, userServers, env });
    this.loadedFiles = files;
    return files;
  }

  private declareInline(inline: Record<string, McpServerConfig> | undefined, origin: 'send' | 'create'): ServerDeclaration[] {
    const placeholders = { env: this.options.env, workspaceFolder: this.options.cwd, userHome: this.options.homeDir };
    return Object.entries(inline ?? {}).map(([name, written]) => declareServer(name, written, { origin, base: this.options.cwd, placeholders }));
  }

  /** Declarations that can start: a problem or a trust refusal is one warning, and the server is left out. */
  private async usableServers(declarations: ServerDeclaration[], warnings: RunWarnings, signal: AbortSignal): Promise<ServerDeclaration[]> {
    const usable: ServerDeclaration[] = [];
    // One at a time: a host's trust check may ask a person.
    for (const declaration of declarations) {
      if (declaration.problem !== undefined) {
        warnings.add(declaration.name, declaration.problem);
        continue;
      }
      const answer = await untilAborted(this.trust.decide(declaration), signal);
      if (answer.trusted) usable.push(declaration);
      else warnings.add(declaration.name, answer.reason);
    }
    return usable;
  }

  private acquireAll(declarations: ServerDeclaration[], createConnection: ConnectionFactory, warnings: RunWarnings): PooledConnection[] {
    return declarations.flatMap((declaration) => {
      try {
        return [this.pool.acquire(declaration, createConnection)];
      } catch (error) {
        warnings.add(declaration.name, `MCP server "${declaration.name}" could not be set up: ${(error as Error).message}`);
        return [];
      }
    });
  }

  private loadConnectionFactory(): Promise<ConnectionFactory> {
    const given = this.dependencies.createConnection;
    // Loaded on first use: the MCP SDK stays out of an agent's start-up until a server is actually started.
    this.connectionFactory ??= given ? Promise.resolve(given) : import('../connection/connection.js').then((module) => module.createMcpConnection);
    return this.connectionFactory;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error("This agent's MCP session is closed (agent.close() was called); create or resume the agent again to use its MCP servers");
  }
}

/** The connection's own message when it names the server (it says what to do), else one that does. */
function startFailure(entry: PooledConnection): string {
  const { name } = entry.declaration;
  const reason = (entry.connection.error ?? entry.startError ?? 'it stopped while starting').replace(/\.$/, '');
  const named = reason.startsWith(`MCP server "${name}"`) ? reason : `MCP server "${name}" failed to start: ${reason}`;
  return `${named}. The run goes on without its tools (agent.reload() tries it again)`;
}

function isFileOrigin(entry: PooledConnection): boolean {
  return entry.declaration.origin === 'project' || entry.declaration.origin === 'user';
}
