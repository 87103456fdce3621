import type { McpServerConfig, McpServerOrigin, McpServerState, ToolDefinition } from '@cairn/core/spec';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { defaultResultDir } from '../tools/result-files.js';
import { serverToolDefinitions } from '../tools/server-tools.js';
import type { McpToolHost } from '../tools/tool-host.js';
import { loadMcpSdk } from './mcp-sdk.js';
import { describeError, listAllTools, openServerLink, type ServerLink, seconds } from './server-link.js';
import { defaultCallTimeoutMs, defaultStartupTimeoutMs, type TransportKind, transportKind, unsupportedConfigProblem } from './transport-kind.js';
import { untilAborted } from './until-aborted.js';

export interface McpConnectionOptions {
  /** The server's name in config. */
  name: string;
  /** Already expanded (no `${env:...}` left) and checked. */
  config: McpServerConfig;
  origin: McpServerOrigin;
  /** Default working folder of stdio servers (the workspace). */
  cwd: string;
  /** The agent's environment: stdio servers get its safe part (PATH, HOME, locale, ...) plus the config's `env`. */
  env: Record<string, string | undefined>;
  /** Folder for whole results too large for the model; default a private folder under the OS temp dir. */
  resultDir?: string;
  /** After a tools/list_changed (or a restart) changed `tools()`. */
  onToolsChanged?(): void;
}

export interface McpConnection {
  readonly name: string;
  readonly origin: McpServerOrigin;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly state: McpServerState;
  readonly error?: string;
  /** What the server asks to be told to the model (its `instructions` from initialize), while it is ready. */
  readonly instructions?: string;
  /** Connect and list tools; rejects with an Error whose message says what failed and what to do. Idempotent. */
  start(signal?: AbortSignal): Promise<void>;
  /** The server's tools as agent tools (current list). */
  tools(): readonly ToolDefinition[];
  close(): Promise<void>;
}

export function createMcpConnection(options: McpConnectionOptions): McpConnection {
  return new ServerConnection(options);
}

/**
 * One server for the life of an agent: started once (shared by its runs), restarted once after a
 * crash, closed with the agent. Its tools call back into `request`, which applies the call's
 * signal and timeout and turns a crash in the middle of a call into a message about the restart.
 */
class ServerConnection implements McpConnection, McpToolHost {
  readonly name: string;
  readonly origin: McpServerOrigin;
  readonly server: string;
  readonly callTimeoutMs: number;
  private readonly startupTimeoutMs: number;
  private readonly configuredKind: TransportKind;
  private currentState: McpServerState = 'starting';
  private failure?: string;
  private link?: ServerLink;
  private launching?: Promise<void>;
  private restarted = false;
  /** For each link that went away: what a call that was in flight on it is told. */
  private readonly lost = new WeakMap<ServerLink, Promise<string>>();
  private readonly lifetime = new AbortController();
  private definitions: readonly ToolDefinition[] = [];
  private relisting: Promise<void> = Promise.resolve();
  private closing?: Promise<void>;

  constructor(private readonly options: McpConnectionOptions) {
    this.name = options.name;
    this.server = options.name;
    this.origin = options.origin;
    this.configuredKind = transportKind(options.config);
    this.startupTimeoutMs = options.config.startupTimeoutMs ?? defaultStartupTimeoutMs;
    this.callTimeoutMs = options.config.callTimeoutMs ?? defaultCallTimeoutMs;
  }

  /** Made on first use: most agents never see a result large enough to need it. */
  get resultDir(): string {
    return this.options.resultDir ?? defaultResultDir();
  }

  get instructions(): string | undefined {
    return this.link?.client.getInstructions();
  }

  get transport(): TransportKind {
    return this.link?.kind ?? this.configuredKind;
  }

  get state(): McpServerState {
    return this.currentState;
  }

  get error(): string | undefined {
    return this.currentState === 'failed' ? this.failure : undefined;
  }

  tools(): readonly ToolDefinition[] {
    return this.currentState === 'ready' ? this.definitions : [];
  }

  /** Shared by every caller: a caller's signal stops its wait, not the start (the next run finds the server ready). */
  start(signal?: AbortSignal): Promise<void> {
    if (this.currentState === 'closed') return Promise.reject(new Error(`MCP server "${this.name}" was closed.`));
    if (!this.launching) {
      this.launching = this.launch();
      this.launching.catch(() => {});
    }
    return untilAborted(this.launching, signal);
  }

  private async launch(): Promise<void> {
    const problem = unsupportedConfigProblem(this.name, this.options.config);
    if (problem) throw this.fail(problem);
    let link: ServerLink;
    try {
      link = await this.open();
    } catch (error) {
      throw this.fail(`MCP server "${this.name}" could not start: ${describeError(error)}.`);
    }
    this.attach(link);
  }

  private async open(): Promise<ServerLink> {
    const sdk = await loadMcpSdk();
    const { config, cwd, env } = this.options;
    return openServerLink(sdk, {
      name: this.name, config, cwd, env, timeoutMs: this.startupTimeoutMs, signal: this.lifetime.signal,
      onToolListChanged: (link) => this.relist(link),
    });
  }

  /** Makes `link` the live one, unless the connection was closed meanwhile (then it is closed too). */
  private attach(link: ServerLink): void {
    if (this.currentState === 'closed') {
      void link.close();
      throw new Error(`MCP server "${this.name}" was closed while it was starting.`);
    }
    this.link = link;
    link.client.onclose = () => this.lose(link);
    this.definitions = serverToolDefinitions(this, link.tools, link.capabilities);
    this.currentState = 'ready';
  }

  private fail(message: string): Error {
    if (this.currentState !== 'closed') {
      this.currentState = 'failed';
      this.failure = message;
      this.definitions = [];
    }
    return new Error(message);
  }

  /** The server went away on its own (crashed, exited): restart it once; a second time it stays failed. */
  private lose(link: ServerLink): void {
    if (this.link !== link || this.currentState === 'closed') return;
    this.link = undefined;
    const what = `MCP server "${this.name}" stopped (${link.describeExit()})`;
    if (this.restarted) {
      const message = `${what}. It had been restarted once already, so it is not restarted again: its tools are unavailable for the rest of this agent's session.`;
      this.fail(message);
      this.lost.set(link, Promise.resolve(message));
      this.options.onToolsChanged?.();
      return;
    }
    this.restarted = true;
    this.currentState = 'starting';
    const outcome = this.restart(what);
    this.lost.set(link, outcome);
    this.launching = outcome.then(() => {
      if (this.currentState !== 'ready') throw new Error(this.failure ?? `MCP server "${this.name}" is not running.`);
    });
    this.launching.catch(() => {});
  }

  private async restart(what: string): Promise<string> {
    try {
      this.attach(await this.open());
      this.options.onToolsChanged?.();
      return `${what}; it was restarted and its tools were listed again. The call was not repeated: call the tool again if that is safe.`;
    } catch (error) {
      const message = `${what}, and restarting it failed: ${describeError(error)}. Its tools are unavailable for the rest of this agent's session.`;
      this.fail(message);
      this.options.onToolsChanged?.();
      return message;
    }
  }

  /** After `notifications/tools/list_changed`: list again, one listing at a time, and tell the session. */
  private relist(link: ServerLink): void {
    this.relisting = this.relisting.then(async () => {
      if (this.link !== link) return;
      try {
        link.tools = await listAllTools(link.client, { timeout: this.callTimeoutMs, signal: this.lifetime.signal });
      } catch {
        return; // The old list stays; a crash is handled by `lose`.
      }
      if (this.link !== link) return;
      this.definitions = serverToolDefinitions(this, link.tools, link.capabilities);
      this.options.onToolsChanged?.();
    });
  }

  async request<T>(label: string, run: (client: Client, options: RequestOptions) => Promise<T>, signal: AbortSignal): Promise<T> {
    const link = await this.liveLink(signal);
    try {
      return await run(link.client, { signal, timeout: this.callTimeoutMs });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      const lost = this.lost.get(link);
      if (lost) throw new Error(`${await lost} (during ${label})`);
      if ((error as { code?: unknown }).code === -32001) {
        throw new Error(`MCP server "${this.name}" did not answer ${label} within ${seconds(this.callTimeoutMs)} (callTimeoutMs), so the request was cancelled. Raise callTimeoutMs in the server's config if it needs longer.`);
      }
      throw new Error(`MCP server "${this.name}" failed ${label}: ${describeError(error)}`);
    }
  }

  private async liveLink(signal: AbortSignal): Promise<ServerLink> {
    if (!this.link && this.currentState === 'starting' && this.launching) await untilAborted(this.launching.catch(() => {}), signal);
    if (this.link) return this.link;
    if (this.currentState === 'closed') throw new Error(`MCP server "${this.name}" was closed.`);
    throw new Error(this.failure ?? `MCP server "${this.name}" is not running.`);
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.currentState = 'closed';
      this.definitions = [];
      this.lifetime.abort();
      const link = this.link;
      this.link = undefined;
      this.closing = (async () => {
        await link?.close();
        // A start (or restart) under way ends at the abort; its process is gone when it settles.
        await this.launching?.catch(() => {});
      })();
    }
    return this.closing;
  }
}
