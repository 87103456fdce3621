import type { McpRemoteServerConfig, McpServerConfig, McpStdioServerConfig } from '@cairn/core/spec';

export type TransportKind = 'stdio' | 'http' | 'sse';

export const defaultStartupTimeoutMs = 60_000;
export const defaultCallTimeoutMs = 120_000;

export function isRemoteConfig(config: McpServerConfig): config is McpRemoteServerConfig {
  return typeof (config as McpRemoteServerConfig).url === 'string';
}

export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return !isRemoteConfig(config);
}

/** `sse` only when asked for; a `url` alone is streamable HTTP (with a fallback to SSE at connect). */
export function transportKind(config: McpServerConfig): TransportKind {
  if (!isRemoteConfig(config)) return 'stdio';
  return config.type === 'sse' ? 'sse' : 'http';
}

/** A config the connection can check only when it starts: OAuth needs a sign-in flow Cairn does not have. */
export function unsupportedConfigProblem(name: string, config: McpServerConfig): string | undefined {
  if (isRemoteConfig(config) && config.auth !== undefined) {
    return `MCP server "${name}" asks for OAuth ("auth"), which Cairn does not support: remove "auth" and put a token in "headers", e.g. "headers": { "Authorization": "Bearer <token>" }.`;
  }
  return undefined;
}
