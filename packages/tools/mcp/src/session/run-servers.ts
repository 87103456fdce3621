import type { McpRunServers, McpWarning, ToolDefinition } from '@cairn/core';
import type { ServerDeclaration } from '../config/server-declaration.js';
import type { PooledConnection } from './connection-pool.js';

/**
 * The servers one run uses: its inline servers (the send's set, else the creation-time set, chosen by
 * the caller) over the file servers, by name. A name declared inline hides the file's server entirely.
 */
export function chooseRunServers(inline: readonly ServerDeclaration[], files: readonly ServerDeclaration[]): ServerDeclaration[] {
  const inlineNames = new Set(inline.map((declaration) => declaration.name));
  return [...inline, ...files.filter((declaration) => !inlineNames.has(declaration.name))];
}

/** A run's view of its connections: each call reads their current tool lists, so `list_changed` shows at the next step. */
export function runServers(entries: readonly PooledConnection[]): McpRunServers {
  return {
    tools(): readonly ToolDefinition[] {
      return entries.flatMap((entry) => (entry.connection.state === 'ready' ? entry.connection.tools() : []));
    },
  };
}

/** Says each problem once per run: one warning per server, one per broken file. */
export class RunWarnings {
  private readonly said = new Set<string>();

  constructor(private readonly warn: (warning: McpWarning) => void) {}

  /** `server` is empty for a problem of a whole config file (the message names the file). */
  add(server: string, message: string): void {
    const key = server === '' ? `file\u0000${message}` : `server\u0000${server}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    this.warn({ server, message });
  }
}
