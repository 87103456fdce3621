import type { ToolDefinition } from '@cairn/core/spec';
import type { ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mcpToolDefinition } from './mcp-tool.js';
import { promptTools } from './prompt-tools.js';
import { resourceTools } from './resource-tools.js';
import type { McpToolHost } from './tool-host.js';
import { qualifiedToolName, uniqueToolNames } from './tool-names.js';

/**
 * Every agent tool of one server: its own tools, then `list_resources` / `read_resource` and
 * `list_prompts` / `get_prompt` when it has those capabilities. The server's own tools name
 * first: a helper whose name one of them already has is left out (the server's tool stands).
 */
export function serverToolDefinitions(host: McpToolHost, tools: readonly Tool[], capabilities: ServerCapabilities): ToolDefinition[] {
  const taken = new Set<string>();
  const names = uniqueToolNames(host.server, tools.map((tool) => tool.name), taken);
  const helperName = (tool: string) => qualifiedToolName(host.server, tool);
  const readResourceTool = capabilities.resources ? helperName('read_resource') : undefined;
  const definitions = tools.flatMap((tool, index) => {
    const name = names[index];
    return name === undefined ? [] : [mcpToolDefinition(host, tool, { name, ...(readResourceTool ? { readResourceTool } : {}) })];
  });
  const helpers = [
    ...(capabilities.resources ? resourceTools(host, { list: helperName('list_resources'), read: helperName('read_resource') }) : []),
    ...(capabilities.prompts ? promptTools(host, { list: helperName('list_prompts'), get: helperName('get_prompt') }) : []),
  ];
  return [...definitions, ...helpers.filter((helper) => !taken.has(helper.name))];
}
