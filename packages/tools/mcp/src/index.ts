// `@cairn/tools-mcp`: MCP servers' tools, resources and prompts as agent tools. Importing this
// entry loads no MCP SDK code: the SDK is imported when a server is first started.
export { mcpConnector, mcpPlugin } from './plugin.js';
export { type McpSessionDependencies, openMcpSession } from './session/mcp-session.js';
export { configProblem } from './config/config-problem.js';
export { mcpServerConfigHash } from './config/config-hash.js';
export type { McpConnection, McpConnectionOptions } from './connection/connection.js';
export { qualifiedToolName } from './tools/tool-names.js';
