import type { JSONSchema, ToolDefinition, ToolExecutionContext, ToolResultContent } from '@cairn/core/spec';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { toToolResult } from './call-result.js';
import type { McpToolHost } from './tool-host.js';

/** The tool's own timeout sits this far above callTimeoutMs, so the MCP request (which tells the server it was cancelled) ends first. */
export const runtimeTimeoutMarginMs = 5_000;

export interface McpToolNaming {
  /** Model-facing (and rule) name: `mcp__<server>__<tool>`. */
  name: string;
  /** The server's read_resource tool, named in results that link resources. */
  readResourceTool?: string;
}

/** One server tool as an agent tool: schema passed through, `readOnlyHint` as `readOnly`. */
export function mcpToolDefinition(host: McpToolHost, tool: Tool, naming: McpToolNaming): ToolDefinition {
  return {
    id: naming.name,
    name: naming.name,
    description: tool.description ?? tool.title ?? tool.annotations?.title ?? `Tool "${tool.name}" of the MCP server "${host.server}".`,
    inputSchema: { jsonSchema: tool.inputSchema as JSONSchema },
    readOnly: tool.annotations?.readOnlyHint === true,
    category: 'mcp',
    timeoutMs: host.callTimeoutMs + runtimeTimeoutMarginMs,
    // The original names, for `mcp(server:tool)` rules: the model-facing name may be sanitised or hashed.
    ruleSubject: () => `${host.server}:${tool.name}`,
    execute: (input, context) => callTool(host, tool.name, input, context, naming),
  };
}

async function callTool(host: McpToolHost, tool: string, input: unknown, context: ToolExecutionContext, naming: McpToolNaming): Promise<ToolResultContent> {
  const mapping = { resultDir: host.resultDir, agentId: context.agentId, server: host.server, tool, toolCallId: context.toolCallId, ...(naming.readResourceTool ? { readResourceTool: naming.readResourceTool } : {}) };
  return withErrorResult(context, async () => {
    const args = (input ?? {}) as Record<string, unknown>;
    const result = (await host.request(`the call of "${tool}"`, (client, options) => client.callTool({ name: tool, arguments: args }, undefined, options), context.signal)) as CallToolResult;
    return toToolResult(result, mapping);
  });
}

/** Runs `work`; its failure is an error result the model reads, except a cancel, which belongs to the run. */
export async function withErrorResult(context: ToolExecutionContext, work: () => Promise<ToolResultContent>): Promise<ToolResultContent> {
  try {
    return await work();
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    return { content: [{ type: 'text', text: (error as Error).message ?? String(error) }], isError: true };
  }
}
