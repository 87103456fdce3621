import type { ToolDefinition, ToolExecutionContext, ToolResultContent } from '@cairn/core/spec';
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { contentPart } from './call-result.js';
import { capLargeResult } from './large-result.js';
import { runtimeTimeoutMarginMs, withErrorResult } from './mcp-tool.js';
import type { McpToolHost } from './tool-host.js';

const listSchema = {
  type: 'object',
  properties: { cursor: { type: 'string', description: 'The nextCursor of an earlier page, to list the next one.' } },
  additionalProperties: false,
} as const;

const getSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The prompt name, as list_prompts gives it.' },
    arguments: { type: 'object', additionalProperties: { type: 'string' }, description: "The prompt's arguments, by name." },
  },
  required: ['name'],
  additionalProperties: false,
} as const;

/** `list_prompts` and `get_prompt` for a server that has prompts; both read-only. */
export function promptTools(host: McpToolHost, names: { list: string; get: string }): ToolDefinition[] {
  const base = { readOnly: true, category: 'mcp' as const, timeoutMs: host.callTimeoutMs + runtimeTimeoutMarginMs };
  return [
    {
      ...base,
      id: names.list,
      name: names.list,
      description: `List the prompt templates of the MCP server "${host.server}" and their arguments; fetch one with ${names.get}.`,
      inputSchema: { jsonSchema: listSchema },
      ruleSubject: () => `${host.server}:list_prompts`,
      execute: (input: { cursor?: string }, context) => withErrorResult(context, () => listPrompts(host, input.cursor, context)),
    },
    {
      ...base,
      id: names.get,
      name: names.get,
      description: `Get one prompt template of the MCP server "${host.server}", filled in with its arguments.`,
      inputSchema: { jsonSchema: getSchema },
      ruleSubject: () => `${host.server}:get_prompt`,
      execute: (input: { name: string; arguments?: Record<string, string> }, context) => withErrorResult(context, () => getPrompt(host, input, context)),
    },
  ];
}

async function listPrompts(host: McpToolHost, cursor: string | undefined, context: ToolExecutionContext): Promise<ToolResultContent> {
  const page = await host.request('prompts/list', (client, options) => client.listPrompts(cursor === undefined ? undefined : { cursor }, options), context.signal);
  const lines = page.prompts.map(describePrompt);
  if (page.nextCursor) lines.push(`More prompts: call again with cursor "${page.nextCursor}".`);
  return { content: [{ type: 'text', text: lines.length > 0 ? lines.join('\n') : `The MCP server "${host.server}" has no prompts.` }] };
}

function describePrompt(prompt: Prompt): string {
  const args = (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required ? '' : '?'}`).join(', ');
  return `- ${prompt.name}(${args})${prompt.description ? ` — ${prompt.description}` : ''}`;
}

async function getPrompt(host: McpToolHost, input: { name: string; arguments?: Record<string, string> }, context: ToolExecutionContext): Promise<ToolResultContent> {
  const params = { name: input.name, ...(input.arguments ? { arguments: input.arguments } : {}) };
  const result = await host.request(`the prompt "${input.name}"`, (client, options) => client.getPrompt(params, options), context.signal);
  const place = { resultDir: host.resultDir, agentId: context.agentId, server: host.server, tool: 'get_prompt', toolCallId: context.toolCallId };
  const parts: ToolResultContent['content'] = result.description ? [{ type: 'text', text: result.description }] : [];
  for (const [index, message] of result.messages.entries()) {
    parts.push({ type: 'text', text: `[${message.role}]` }, await contentPart(message.content, index, place));
  }
  return capLargeResult({ content: parts }, place);
}
