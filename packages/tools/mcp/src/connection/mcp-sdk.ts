// The official MCP SDK (and zod, which it pulls in) is loaded here and only here, with dynamic
// imports, the first time a server is started: an agent without MCP servers never pays for it.
// Everything else in the package imports the SDK's *types* only.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: typeof StreamableHTTPError;
  SSEClientTransport: typeof SSEClientTransport;
  deserializeMessage: typeof deserializeMessage;
  serializeMessage: typeof serializeMessage;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
}

let loading: Promise<McpSdk> | undefined;

/** The SDK's modules, imported once per process on first use. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= importSdk().catch((error: unknown) => {
    loading = undefined;
    throw new Error(`The MCP SDK (@modelcontextprotocol/sdk) could not be loaded: ${(error as Error).message}. Reinstall @cairn/tools-mcp's dependencies.`);
  });
  return loading;
}

async function importSdk(): Promise<McpSdk> {
  const [client, streamable, sse, stdio, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    StreamableHTTPError: streamable.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    deserializeMessage: stdio.deserializeMessage,
    serializeMessage: stdio.serializeMessage,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}
