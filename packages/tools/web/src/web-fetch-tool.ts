import { defineTool, isAbortError, type ToolDefinition, ToolError, type ToolResultContent } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { decodeText, kindFromContentType, mediaType, sniffKind } from './content-kind.js';
import { type FetchedPage, fetchPage } from './fetch-page.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { type HostResolver, systemResolver } from './resolve-target.js';
import { type ResolvedWebFetchSettings, resolveWebFetchSettings } from './web-fetch-settings.js';

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

export function createWebFetchTool(options: WebFetchToolOptions = {}): ToolDefinition<WebFetchInput> {
  const resolver = options.resolveHost ?? systemResolver;
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
    async execute(input, context): Promise<ToolResultContent> {
      const settings = resolveWebFetchSettings(context.settings);
      let url: URL;
      try {
        url = new URL(input.url.trim());
      } catch {
        throw new ToolError(`"${input.url}" is not a valid URL. Pass an absolute http(s) URL such as https://example.com/page.`);
      }
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const signal = AbortSignal.any([context.signal, timeout]);
      let page: FetchedPage;
      try {
        page = await fetchPage(url, settings, resolver, signal, options.ca);
      } catch (error) {
        throw describeFailure(error, url, context.signal, timeout, settings);
      }
      return formatPage(page, settings);
    },
  });
}

export const webFetchTool = createWebFetchTool();

function describeFailure(error: unknown, url: URL, callerSignal: AbortSignal, timeout: AbortSignal, settings: ResolvedWebFetchSettings): unknown {
  if (ToolError.isInstance(error)) return error;
  // A cancel from the run is not the tool's failure: let the runtime see the abort as it is.
  if (callerSignal.aborted) return callerSignal.reason ?? error;
  if (timeout.aborted || isAbortError(error)) {
    return new ToolError(`Fetching ${url.href} took longer than ${Math.round(settings.timeoutMs / 1000)} s and was stopped.`);
  }
  const code = (error as NodeJS.ErrnoException).code;
  const detail = code ? `${code}: ${(error as Error).message}` : String((error as Error).message ?? error);
  return new ToolError(`Fetching ${url.href} failed (${detail}).`, { cause: error });
}

function formatPage(page: FetchedPage, settings: ResolvedWebFetchSettings): ToolResultContent {
  const contentType = page.headers['content-type'];
  const kind = kindFromContentType(contentType) ?? sniffKind(page.bytes);
  if (page.status < 200 || page.status >= 300) {
    const text = kind === 'binary' ? '' : decodeText(page.bytes, contentType, kind);
    const excerpt = (kind === 'html' ? htmlToMarkdown(text, page.url).markdown : text).slice(0, 1000);
    throw new ToolError(`${page.url} answered HTTP ${page.status}.${excerpt ? `\n\n${excerpt}` : ''}`);
  }
  if (kind === 'binary') {
    throw new ToolError(
      `${page.url} is binary content (${mediaType(contentType) || 'unknown type'}), which web_fetch does not return. Only HTML, text and JSON can be read.`,
    );
  }
  const text = decodeText(page.bytes, contentType, kind);
  let title: string | undefined;
  let body = text;
  if (kind === 'html') ({ title, markdown: body } = htmlToMarkdown(text, page.url));
  const notices: string[] = [];
  if (page.truncated) notices.push(`[The download stopped at ${formatBytes(settings.maxBytes)}; the rest of the page was not fetched.]`);
  let truncated = page.truncated;
  if (body.length > settings.maxMarkdownChars) {
    notices.push(`[Content cut: showing the first ${settings.maxMarkdownChars} of ${body.length} characters.]`);
    body = body.slice(0, settings.maxMarkdownChars);
    truncated = true;
  }
  const header = [title ? `# ${title}` : undefined, `URL: ${page.url}`, page.redirects.length ? `Redirected from: ${page.redirects[0]}` : undefined]
    .filter(Boolean)
    .join('\n');
  const output = [header, body, ...notices].filter((part) => part !== '').join('\n\n');
  return {
    content: [{ type: 'text', text: output }],
    truncated,
    structuredContent: {
      url: page.url,
      status: page.status,
      contentType: mediaType(contentType),
      title: title ?? null,
      redirects: page.redirects,
      truncated,
    },
  };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}
