import type { ProviderCase } from '../provider-harness.js';

/** A tool as a request offered it. */
export interface WireTool {
  name: string;
  description: string | undefined;
  schema: unknown;
}

/** One tool result of a request, as the model read it. `isError` is undefined where the wire has no error flag (OpenAI). */
export interface WireToolResult {
  text: string;
  isError: boolean | undefined;
  images: Array<{ mediaType: string; data: string }>;
}

/** Reads the parts of a request body that custom tools and images show up in, for each of the four wire protocols. */
export interface WireInspection {
  tools(body: Record<string, any>): WireTool[];
  /** The results of the newest tool round, in call order. */
  toolResults(body: Record<string, any>): WireToolResult[];
  /** The image parts of the first user message, exactly as sent. */
  userImages(body: Record<string, any>): unknown[];
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

function fromDataUrl(url: string): { mediaType: string; data: string } {
  const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
  if (!match) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}`);
  return { mediaType: match[1]!, data: match[2]! };
}

const anthropic: WireInspection = {
  tools: (body) => (body.tools ?? []).map((tool: any) => ({ name: tool.name, description: tool.description, schema: tool.input_schema })),
  toolResults(body) {
    const turn = [...body.messages].reverse().find((message: any) => Array.isArray(message.content) && message.content[0]?.type === 'tool_result');
    return (turn?.content ?? [])
      .filter((block: any) => block.type === 'tool_result')
      .map((block: any) => {
        const parts = typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content;
        return {
          text: parts.filter((part: any) => part.type === 'text').map((part: any) => part.text).join('\n'),
          isError: block.is_error === true,
          images: parts.filter((part: any) => part.type === 'image').map((part: any) => ({ mediaType: part.source.media_type, data: part.source.data })),
        };
      });
  },
  // The cache breakpoint on the newest block is prompt caching, not part of the image.
  userImages: (body) => body.messages[0].content.filter((block: any) => block.type === 'image').map(({ cache_control: _cache, ...block }: any) => block),
};

const gemini: WireInspection = {
  tools: (body) => (body.tools ?? []).flatMap((tool: any) => tool.functionDeclarations ?? []).map((tool: any) => ({ name: tool.name, description: tool.description, schema: tool.parametersJsonSchema })),
  toolResults(body) {
    const turn = [...body.contents].reverse().find((content: any) => content.parts?.some((part: any) => part.functionResponse));
    const results = new Map<string, WireToolResult>();
    let imagesOf: string | undefined;
    for (const part of turn?.parts ?? []) {
      if (part.functionResponse) {
        const response = part.functionResponse.response;
        results.set(part.functionResponse.name, { text: asText(response.output ?? response.error), isError: 'error' in response, images: [] });
      } else if (typeof part.text === 'string') {
        imagesOf = /^Images returned by the (\S+) call:$/.exec(part.text)?.[1];
      } else if (part.inlineData && imagesOf) {
        results.get(imagesOf)?.images.push({ mediaType: part.inlineData.mimeType, data: part.inlineData.data });
      }
    }
    return [...results.values()];
  },
  userImages: (body) => body.contents[0].parts.filter((part: any) => part.inlineData || part.fileData),
};

const responses: WireInspection = {
  tools: (body) => (body.tools ?? []).map((tool: any) => ({ name: tool.name, description: tool.description, schema: tool.parameters })),
  toolResults(body) {
    const trailing: any[] = [];
    for (let index = body.input.length - 1; index >= 0 && body.input[index].type === 'function_call_output'; index--) trailing.unshift(body.input[index]);
    return trailing.map((item) => {
      const parts = typeof item.output === 'string' ? [{ type: 'input_text', text: item.output }] : item.output;
      return {
        text: parts.filter((part: any) => part.type === 'input_text').map((part: any) => part.text).join('\n'),
        isError: undefined,
        images: parts.filter((part: any) => part.type === 'input_image').map((part: any) => fromDataUrl(part.image_url)),
      };
    });
  },
  userImages: (body) => body.input.find((item: any) => item.role === 'user').content.filter((part: any) => part.type === 'input_image'),
};

const chat: WireInspection = {
  tools: (body) => (body.tools ?? []).map((tool: any) => ({ name: tool.function.name, description: tool.function.description, schema: tool.function.parameters })),
  toolResults(body) {
    const messages = body.messages as Array<Record<string, any>>;
    const assistantIndex = messages.map((message) => Boolean(message.tool_calls?.length)).lastIndexOf(true);
    const results = new Map<string, WireToolResult>();
    let index = assistantIndex + 1;
    for (; messages[index]?.role === 'tool'; index++) results.set(messages[index]!.tool_call_id, { text: asText(messages[index]!.content), isError: undefined, images: [] });
    // Images of tool results follow the tool messages as one user message, introduced per call.
    let imagesOf: string | undefined;
    for (const part of Array.isArray(messages[index]?.content) ? messages[index]!.content : []) {
      if (part.type === 'text') imagesOf = /^Images returned by tool call (\S+):$/.exec(part.text)?.[1];
      else if (part.type === 'image_url' && imagesOf) results.get(imagesOf)?.images.push(fromDataUrl(part.image_url.url));
    }
    return [...results.values()];
  },
  userImages: (body) => body.messages.find((message: any) => message.role === 'user').content.filter((part: any) => part.type === 'image_url'),
};

export function wireOf(provider: ProviderCase): WireInspection {
  if (provider.name.startsWith('Anthropic')) return anthropic;
  if (provider.name.startsWith('Gemini')) return gemini;
  if (provider.name === 'OpenAI Responses') return responses;
  return chat;
}

/** The four wire protocols once each (the harness has two Gemini cases). */
export function oneCasePerWire(cases: ProviderCase[]): ProviderCase[] {
  return cases.filter((provider) => provider.name !== 'Gemini 3');
}
