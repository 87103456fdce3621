import type { CairnPlugin, McpConnector } from '@cairn/core';
import { configProblem } from './config/config-problem.js';
import { openMcpSession } from './session/mcp-session.js';

/** The connector core asks for MCP servers: it checks inline configs and opens one session per agent. */
export const mcpConnector: McpConnector = {
  configProblem: (name, config) => configProblem(name, config),
  open: (options) => openMcpSession(options),
};

/** Gives agents MCP servers: inline `mcpServers`, and the project and user config files their setting sources allow. */
export function mcpPlugin(): CairnPlugin {
  return { name: '@cairn/tools-mcp', mcp: mcpConnector };
}
