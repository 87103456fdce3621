import { defineTool, lazyImplementation, type ToolDefinition } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import type { HostResolver } from './resolve-target.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const webFetchInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, description: 'The http(s) URL to fetch.' },
    },
    required: ['url'],
  },
} as const;

export type WebFetchInput = FromSchema<typeof webFetchInputSchema.jsonSchema>;

export interface WebFetchToolOptions {
  /** DNS resolution (all addresses of a name). Default: `dns.lookup` with `all: true`. */
  resolveHost?: HostResolver;
  /**
   * Certificates (PEM) to trust for HTTPS instead of Node's bundled CA list, e.g. a company's
   * TLS-inspecting proxy CA. Host names are verified either way.
   */
  ca?: string | string[];
}

// The HTTP client (http, https, dns, zlib) and the HTML converter load at the first fetch.
const implementation = lazyImplementation(() => import('./web-fetch-execute.js'));

export function createWebFetchTool(options: WebFetchToolOptions = {}): ToolDefinition<WebFetchInput> {
  return defineTool<WebFetchInput>({
    id: 'webFetch',
    name: 'web_fetch',
    description: [
      'Fetch a public web page or text document and return it as markdown (HTML is converted; plain text and JSON are returned as they are).',
      'Use it to read documentation, issues or articles at a known URL. Binary files are refused; long pages are cut with a notice.',
      'Private, local and cloud-metadata addresses are refused.',
    ].join(' '),
    inputSchema: webFetchInputSchema,
    // It cannot change the workspace, so read-only modes may offer it; the `web` category and
    // `webFetch(domain:...)` rules are how users restrict it.
    readOnly: true,
    category: 'web',
    timeoutMs: 60_000,
    ruleSubject: (input) => input.url,
    async execute(input, context) {
      return (await implementation()).executeWebFetch(input, context, options);
    },
  });
}

export const webFetchTool = createWebFetchTool();
