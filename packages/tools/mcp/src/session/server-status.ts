import type { McpServerStatus } from '@cairn/core';
import type { ServerDeclaration } from '../config/server-declaration.js';
import type { PooledConnection } from './connection-pool.js';
import type { TrustAnswer } from './trust-gate.js';

/**
 * What `status()` shows for one declared server. A server that cannot be used (a bad config, a missing
 * variable, not trusted) is `failed` with the reason; one that no run has started yet is `closed`.
 */
export function serverStatus(declaration: ServerDeclaration, entry: PooledConnection | undefined, trust: TrustAnswer | undefined): McpServerStatus {
  const status: McpServerStatus = {
    name: declaration.name,
    origin: declaration.origin,
    transport: entry?.connection.transport ?? declaredTransport(declaration.written),
    state: 'closed',
    tools: [],
  };
  if (declaration.file !== undefined) status.file = declaration.file;
  const problem = declaration.problem ?? (trust?.trusted === false ? trust.reason : undefined);
  if (problem !== undefined) return { ...status, state: 'failed', error: problem };
  if (entry === undefined) return status;
  const { connection } = entry;
  status.state = connection.state;
  if (connection.state === 'ready') status.tools = connection.tools().map((tool) => tool.name);
  const error = connection.error ?? entry.startError;
  if (connection.state === 'failed' && error !== undefined) status.error = error;
  return status;
}

function declaredTransport(written: unknown): McpServerStatus['transport'] {
  const config = (typeof written === 'object' && written !== null ? written : {}) as { type?: unknown; command?: unknown };
  if (config.type === 'sse' || config.type === 'http' || config.type === 'stdio') return config.type;
  return config.command !== undefined ? 'stdio' : 'http';
}
