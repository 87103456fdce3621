import type { JSONValue, ToolResultContent } from '@cairn/core/spec';
import type { CallToolResult, ContentBlock, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { capLargeResult } from './large-result.js';
import { type ResultFilePlace, saveResultFile } from './result-files.js';

type Part = ToolResultContent['content'][number];

/** Where binary parts are saved and how the model can read linked resources. */
export interface ResultMapping extends ResultFilePlace {
  /** The model-facing name of the server's read_resource tool, when it has resources. */
  readResourceTool?: string;
}

/**
 * An MCP tool result as a Cairn result: text and images as they are, audio and binary resources
 * saved to a file and described, resource links and embedded text resources as text, with
 * `structuredContent` and `isError` kept and a large result capped (head and tail).
 */
export async function toToolResult(result: CallToolResult, mapping: ResultMapping): Promise<ToolResultContent> {
  const parts: Part[] = [];
  for (const [index, block] of (result.content ?? []).entries()) parts.push(await contentPart(block, index, mapping));
  const structured = result.structuredContent as JSONValue | undefined;
  // The spec asks servers to repeat structured content as text; for those that do not, the model still sees it.
  if (parts.length === 0 && structured !== undefined) parts.push({ type: 'text', text: JSON.stringify(structured) });
  const mapped: ToolResultContent = {
    content: parts,
    ...(result.isError === true ? { isError: true } : {}),
    ...(structured === undefined ? {} : { structuredContent: structured }),
  };
  return capLargeResult(mapped, mapping);
}

export async function contentPart(block: ContentBlock, index: number, mapping: ResultMapping): Promise<Part> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    case 'audio':
      return { type: 'text', text: `[audio (${block.mimeType}, ${await savedBinary(block.data, index, mapping, 'audio')})]` };
    case 'resource_link': {
      const about = [block.mimeType, block.description].filter(Boolean).join('; ');
      const read = mapping.readResourceTool ? ` Read it with ${mapping.readResourceTool}.` : '';
      return { type: 'text', text: `[resource link: ${block.name} <${block.uri}>${about ? ` (${about})` : ''}.${read}]` };
    }
    case 'resource':
      return embeddedResource(block, index, mapping);
    default:
      return { type: 'text', text: `[content of type "${(block as { type: string }).type}" is not shown]` };
  }
}

async function embeddedResource(block: EmbeddedResource, index: number, mapping: ResultMapping): Promise<Part> {
  const { resource } = block;
  const mimeType = resource.mimeType ?? 'unknown type';
  if ('text' in resource) return { type: 'text', text: `[resource <${resource.uri}> (${mimeType})]\n${resource.text}` };
  if (resource.mimeType?.startsWith('image/')) return { type: 'image', data: resource.blob, mimeType: resource.mimeType };
  return { type: 'text', text: `[resource <${resource.uri}> (${mimeType}, ${await savedBinary(resource.blob, index, mapping, 'resource')})]` };
}

/** "12 bytes, saved to <path>" — binary content the model cannot read, kept for the user. */
export async function savedBinary(base64: string, index: number, place: ResultFilePlace, kind: string): Promise<string> {
  const bytes = Buffer.from(base64, 'base64');
  try {
    const path = await saveResultFile(place, `-${kind}-${index}.bin`, bytes);
    return `${bytes.length} bytes, saved to ${path}`;
  } catch (error) {
    return `${bytes.length} bytes, not shown (saving them failed: ${(error as Error).message})`;
  }
}
