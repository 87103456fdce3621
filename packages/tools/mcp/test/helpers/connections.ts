// Opening connections in tests: every one is closed after its test.
import type { McpServerConfig, ToolDefinition, ToolExecutionContext, ToolResultContent } from '@cairn/core/spec';
import { createToolContext } from '@cairn/core/testing';
import { afterEach } from 'vitest';
import { createMcpConnection, type McpConnection, type McpConnectionOptions } from '../../src/connection/connection.js';

export interface TestConnection extends McpConnection {
  /** Resolves at the next onToolsChanged. */
  toolsChanged(): Promise<void>;
}

/** `connect(name, config)` opens a connection that afterEach closes. */
export function useConnections(defaults: Partial<McpConnectionOptions> = {}) {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });
  return function connect(name: string, config: McpServerConfig, options: Partial<McpConnectionOptions> = {}): TestConnection {
    const waiters: Array<() => void> = [];
    const connection = createMcpConnection({
      name, config, origin: 'create', cwd: process.cwd(), env: { PATH: process.env.PATH, HOME: process.env.HOME }, ...defaults, ...options,
      onToolsChanged: () => {
        for (const waiter of waiters.splice(0)) waiter();
        options.onToolsChanged?.();
      },
    });
    open.push(connection);
    return Object.assign(connection, { toolsChanged: () => new Promise<void>((done) => waiters.push(done)) });
  };
}

export function findTool(connection: McpConnection, name: string): ToolDefinition {
  const tool = connection.tools().find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}; tools: ${connection.tools().map((candidate) => candidate.name).join(', ')}`);
  return tool;
}

/** Calls a tool of the connection by model-facing name, as the runtime would. */
export async function callTool(connection: McpConnection, name: string, input: unknown = {}, context: Partial<ToolExecutionContext> = {}): Promise<ToolResultContent> {
  return (await findTool(connection, name).execute(input, createToolContext(context))) as ToolResultContent;
}

export function textOf(result: ToolResultContent): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}]`)).join('\n');
}
