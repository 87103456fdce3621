import type { ToolDefinition, ToolExecutionContext, ToolResultContent } from '@cairn/core/spec';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { savedBinary } from './call-result.js';
import { capLargeResult } from './large-result.js';
import { runtimeTimeoutMarginMs, withErrorResult } from './mcp-tool.js';
import type { McpToolHost } from './tool-host.js';

type Part = ToolResultContent['content'][number];

const listSchema = {
  type: 'object',
  properties: { cursor: { type: 'string', description: 'The nextCursor of an earlier page, to list the next one.' } },
  additionalProperties: false,
} as const;

const readSchema = {
  type: 'object',
  properties: { uri: { type: 'string', description: 'The URI of the resource, as list_resources gives it.' } },
  required: ['uri'],
  additionalProperties: false,
} as const;

/** `list_resources` and `read_resource` for a server that has resources; both read-only. */
export function resourceTools(host: McpToolHost, names: { list: string; read: string }): ToolDefinition[] {
  const base = { readOnly: true, category: 'mcp' as const, timeoutMs: host.callTimeoutMs + runtimeTimeoutMarginMs };
  return [
    {
      ...base,
      id: names.list,
      name: names.list,
      description: `List the resources (files, documents, data) of the MCP server "${host.server}", with their URIs; read one with ${names.read}.`,
      inputSchema: { jsonSchema: listSchema },
      ruleSubject: () => `${host.server}:list_resources`,
      execute: (input: { cursor?: string }, context) => withErrorResult(context, () => listResources(host, input.cursor, context)),
    },
    {
      ...base,
      id: names.read,
      name: names.read,
      description: `Read one resource of the MCP server "${host.server}" by its URI (from ${names.list}).`,
      inputSchema: { jsonSchema: readSchema },
      ruleSubject: () => `${host.server}:read_resource`,
      execute: (input: { uri: string }, context) => withErrorResult(context, () => readResource(host, input.uri, context)),
    },
  ];
}

async function listResources(host: McpToolHost, cursor: string | undefined, context: ToolExecutionContext): Promise<ToolResultContent> {
  const page = await host.request('resources/list', (client, options) => client.listResources(cursor === undefined ? undefined : { cursor }, options), context.signal);
  const lines = page.resources.map(describeResource);
  if (cursor === undefined) lines.push(...(await templateLines(host, context)));
  if (page.nextCursor) lines.push(`More resources: call again with cursor "${page.nextCursor}".`);
  return { content: [{ type: 'text', text: lines.length > 0 ? lines.join('\n') : `The MCP server "${host.server}" has no resources.` }] };
}

function describeResource(resource: Resource): string {
  const about = [resource.mimeType, resource.description].filter(Boolean).join('; ');
  return `- ${resource.uri} — ${resource.title ?? resource.name}${about ? ` (${about})` : ''}`;
}

/** Resource templates, when the server has any (servers without them answer "method not found"). */
async function templateLines(host: McpToolHost, context: ToolExecutionContext): Promise<string[]> {
  let templates: ResourceTemplate[];
  try {
    templates = (await host.request('resources/templates/list', (client, options) => client.listResourceTemplates(undefined, options), context.signal)).resourceTemplates;
  } catch (error) {
    if (context.signal.aborted) throw error;
    return [];
  }
  if (templates.length === 0) return [];
  return ['Templates (fill in the {placeholders} to get a URI):', ...templates.map((template) => `- ${template.uriTemplate} — ${template.title ?? template.name}${template.description ? ` (${template.description})` : ''}`)];
}

async function readResource(host: McpToolHost, uri: string, context: ToolExecutionContext): Promise<ToolResultContent> {
  const result: ReadResourceResult = await host.request(`reading ${uri}`, (client, options) => client.readResource({ uri }, options), context.signal);
  const place = { resultDir: host.resultDir, agentId: context.agentId, server: host.server, tool: 'read_resource', toolCallId: context.toolCallId };
  const parts: Part[] = [];
  for (const [index, contents] of result.contents.entries()) {
    const mimeType = contents.mimeType ?? 'unknown type';
    if ('text' in contents && typeof contents.text === 'string') parts.push({ type: 'text', text: `[${contents.uri} (${mimeType})]\n${contents.text}` });
    else if ('blob' in contents && typeof contents.blob === 'string') {
      if (contents.mimeType?.startsWith('image/')) parts.push({ type: 'image', data: contents.blob, mimeType: contents.mimeType });
      else parts.push({ type: 'text', text: `[${contents.uri} (${mimeType}, ${await savedBinary(contents.blob, index, place, 'resource')})]` });
    }
  }
  if (parts.length === 0) parts.push({ type: 'text', text: `The resource ${uri} is empty.` });
  return capLargeResult({ content: parts }, place);
}
