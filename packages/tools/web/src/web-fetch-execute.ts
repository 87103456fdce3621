import { isAbortError, type ToolExecutionContext, ToolError, type ToolResultContent } from '@cairn/core';
import { decodeText, kindFromContentType, mediaType, sniffKind } from './content-kind.js';
import { type FetchedPage, fetchPage } from './fetch-page.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { systemResolver } from './resolve-target.js';
import { type ResolvedWebFetchSettings, resolveWebFetchSettings } from './web-fetch-settings.js';
import type { WebFetchInput, WebFetchToolOptions } from './web-fetch-tool.js';

/** web_fetch's call, loaded at the first one (see web-fetch-tool.ts for the tool). */
export async function executeWebFetch(input: WebFetchInput, context: ToolExecutionContext, options: WebFetchToolOptions): Promise<ToolResultContent> {
  const resolver = options.resolveHost ?? systemResolver;
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
}

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
