import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpServerConfig } from '@cairn/core/spec';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { childEnvironment } from './child-environment.js';
import type { McpSdk } from './mcp-sdk.js';
import { ProcessGroupTransport } from './process-transport.js';
import { isRemoteConfig, type TransportKind, transportKind } from './transport-kind.js';
import { untilAborted } from './until-aborted.js';

/** One established session with a server: its client, transport and the tools it listed. */
export interface ServerLink {
  readonly client: Client;
  readonly kind: TransportKind;
  capabilities: ServerCapabilities;
  tools: Tool[];
  /** How the server went away, for messages ("its process exited with code 3; its last output: ..."). */
  describeExit(): string;
  /** The end of the server's stderr (stdio), else empty. */
  lastOutput(): string;
  close(): Promise<void>;
}

export interface ServerLinkOptions {
  name: string;
  config: McpServerConfig;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Connect, initialize and the first tools/list must be done within this. */
  timeoutMs: number;
  /** Aborts when the connection is closed. */
  signal: AbortSignal;
  onToolListChanged(link: ServerLink): void;
}

// Servers see this in `initialize`; it names the client, not a version contract.
const clientInfo = { name: 'cairn', version: '0.1.0' };
const maxToolPages = 100;
/** The SDK's error behind each described start failure, for the decision to fall back to SSE. */
const rawErrors = new WeakMap<Error, unknown>();

/** Connect to the server (starting it, for stdio) and list its tools; rejects with a described Error. */
export async function openServerLink(sdk: McpSdk, options: ServerLinkOptions): Promise<ServerLink> {
  const deadline = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const kind = transportKind(options.config);
  try {
    return await connect(sdk, options, kind, deadline);
  } catch (error) {
    // A `url` without `type` may be a legacy SSE server: the MCP spec's fallback is a GET for the SSE stream.
    if (kind === 'http' && options.config.type === undefined && isHttpRefusal(sdk, error) && !deadline.aborted) {
      return connect(sdk, options, 'sse', deadline);
    }
    throw error;
  }
}

async function connect(sdk: McpSdk, options: ServerLinkOptions, kind: TransportKind, deadline: AbortSignal): Promise<ServerLink> {
  const transport = createTransport(sdk, options, kind);
  const client = new sdk.Client(clientInfo, { capabilities: {} });
  const requestOptions: RequestOptions = { signal: deadline, timeout: options.timeoutMs };
  const link: ServerLink = {
    client,
    kind,
    capabilities: {},
    tools: [],
    describeExit: () => (transport instanceof ProcessGroupTransport ? `its process ${transport.describeExit()}` : 'it closed the connection'),
    lastOutput: () => (transport instanceof ProcessGroupTransport ? transport.lastOutput() : ''),
    close: async () => {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  };
  client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => options.onToolListChanged(link));
  try {
    // The SSE transport's start (waiting for the endpoint event) takes no signal: race it.
    await untilAborted(client.connect(transport, requestOptions), deadline);
    link.capabilities = client.getServerCapabilities() ?? {};
    if (link.capabilities.tools) link.tools = await listAllTools(client, requestOptions);
    return link;
  } catch (error) {
    await link.close();
    const described = startFailure(sdk, options, link, error, deadline);
    rawErrors.set(described, error);
    throw described;
  }
}

function createTransport(sdk: McpSdk, options: ServerLinkOptions, kind: TransportKind): Transport {
  const { config } = options;
  if (isRemoteConfig(config)) {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error(`"url" is not a valid URL (${config.url}): write the full address, e.g. https://example.com/mcp`);
    }
    const transportOptions = config.headers ? { requestInit: { headers: config.headers } } : {};
    return kind === 'sse' ? new sdk.SSEClientTransport(url, transportOptions) : new sdk.StreamableHTTPClientTransport(url, transportOptions);
  }
  const cwd = resolve(options.cwd, config.cwd ?? '.');
  if (!isFolder(cwd)) throw new Error(`its working folder "${cwd}" does not exist: fix "cwd" in its config`);
  return new ProcessGroupTransport({ command: config.command, args: config.args ?? [], cwd, env: childEnvironment(options.env, config.env), codec: sdk });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Every page of tools/list. */
export async function listAllTools(client: Client, options: RequestOptions): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxToolPages; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** A streamable-HTTP POST refused the way a legacy SSE-only server refuses it (404, 405, ...). */
function isHttpRefusal(sdk: McpSdk, error: unknown): boolean {
  const raw = error instanceof Error ? rawErrors.get(error) : undefined;
  const code = raw instanceof sdk.StreamableHTTPError ? raw.code : undefined;
  return code !== undefined && code >= 400 && code < 500 && ![401, 403, 408, 429].includes(code);
}

function startFailure(sdk: McpSdk, options: ServerLinkOptions, link: ServerLink, error: unknown, deadline: AbortSignal): Error {
  if (options.signal.aborted) return new Error('it was closed while it was starting');
  if (deadline.aborted || isDeadline(error)) {
    const output = link.lastOutput();
    return new Error(`it did not finish starting within ${seconds(options.timeoutMs)} (startupTimeoutMs${output ? `; its last output: ${output}` : ''}): raise startupTimeoutMs in its config if it is slow to start, e.g. while npx downloads it`);
  }
  if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.ConnectionClosed) {
    return new Error(`${link.describeExit()} before it answered: run its command in a terminal to see why`);
  }
  if (error instanceof sdk.StreamableHTTPError && (error.code === 401 || error.code === 403)) {
    return new Error(`the server refused the connection (HTTP ${error.code}): give it credentials in "headers", e.g. "Authorization": "Bearer <token>"`);
  }
  if (error instanceof sdk.StreamableHTTPError && error.code !== undefined) {
    return new Error(`the server answered HTTP ${error.code} (${error.message.replace(/^Streamable HTTP error: /, '')}): check "url" (and "type": "sse" for a legacy SSE server)`);
  }
  return new Error(describeError(error));
}

function isDeadline(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || (error as { code?: unknown }).code === -32001);
}

/** An error's message with its cause (fetch failures hide the reason there: ECONNREFUSED, ...). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}

export function seconds(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${milliseconds / 1000} s` : `${(milliseconds / 1000).toFixed(1)} s`;
}
