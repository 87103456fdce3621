import { defineTool, type ToolDefinition, ToolError, type ToolResultContent } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { isWebSearchBackend, type WebSearchBackend, type WebSearchResult, type WebSearchSettings } from './web-search-backend.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const webSearchInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What to search the web for, as you would type it into a search engine.' },
    },
    required: ['query'],
  },
} as const;

export type WebSearchInput = FromSchema<typeof webSearchInputSchema.jsonSchema>;

const defaultLimit = 8;
const defaultTimeoutMs = 30_000;
const maxSnippetChars = 500;

function settingsOf(settings: Record<string, unknown>): WebSearchSettings {
  const value = settings.webSearch;
  return typeof value === 'object' && value !== null ? (value as WebSearchSettings) : {};
}

/**
 * `web_search` bound to `backend`, or (without one) to `settings.webSearch.backend` at call time.
 * Not offered (`isEnabled` false) while neither is set.
 */
export function createWebSearchTool(backend?: WebSearchBackend): ToolDefinition<WebSearchInput> {
  const backendFor = (settings: Record<string, unknown>): WebSearchBackend | undefined => {
    if (backend) return backend;
    const configured = settingsOf(settings).backend;
    return isWebSearchBackend(configured) ? configured : undefined;
  };
  return defineTool<WebSearchInput>({
    id: 'webSearch',
    name: 'web_search',
    description: [
      'Search the web and get a list of results (title, URL, snippet).',
      'Use it for information newer than your training or outside the workspace, then read promising pages with web_fetch.',
    ].join(' '),
    inputSchema: webSearchInputSchema,
    readOnly: true,
    category: 'web',
    timeoutMs: 60_000,
    isEnabled: ({ settings }) => backendFor(settings) !== undefined,
    setupHint: 'give it a search backend: toolSettings: { webSearch: { backend: { search(query, { signal, limit }) } } }, or createWebSearchTool(backend) in your own registry',
    ruleSubject: (input) => input.query,
    async execute(input, context): Promise<ToolResultContent> {
      const chosen = backendFor(context.settings);
      if (!chosen) throw new ToolError('No web search backend is configured, so web_search is unavailable. Use web_fetch with a known URL instead.');
      const settings = settingsOf(context.settings);
      const limit = typeof settings.limit === 'number' && settings.limit > 0 ? Math.floor(settings.limit) : defaultLimit;
      const timeout = AbortSignal.timeout(typeof settings.timeoutMs === 'number' && settings.timeoutMs > 0 ? settings.timeoutMs : defaultTimeoutMs);
      const signal = AbortSignal.any([context.signal, timeout]);
      let results: WebSearchResult[];
      try {
        results = await chosen.search(input.query, { signal, limit });
      } catch (error) {
        if (context.signal.aborted) throw context.signal.reason ?? error;
        if (timeout.aborted) throw new ToolError('The web search took too long and was stopped. Try again or use a more specific query.');
        throw new ToolError(`The web search failed: ${(error as Error).message ?? String(error)}`, { cause: error });
      }
      const clean = (Array.isArray(results) ? results : []).filter(isResult).slice(0, limit).map(normalize);
      return {
        content: [{ type: 'text', text: formatResults(input.query, clean) }],
        structuredContent: { query: input.query, results: clean.map((result) => ({ ...result })) },
      };
    },
  });
}

/** Reads its backend from `settings.webSearch.backend`. */
export const webSearchTool = createWebSearchTool();

function isResult(value: unknown): value is WebSearchResult {
  const result = value as WebSearchResult;
  return typeof value === 'object' && value !== null && typeof result.url === 'string' && typeof result.title === 'string';
}

function normalize(result: WebSearchResult): WebSearchResult {
  const snippet = typeof result.snippet === 'string' ? result.snippet.replace(/\s+/g, ' ').trim() : '';
  return {
    title: result.title.replace(/\s+/g, ' ').trim() || result.url,
    url: result.url,
    snippet: snippet.length > maxSnippetChars ? `${snippet.slice(0, maxSnippetChars)}...` : snippet,
  };
}

export function formatResults(query: string, results: readonly WebSearchResult[]): string {
  if (results.length === 0) return `No web results for "${query}". Try other words.`;
  const lines = results.map((result, index) => [`${index + 1}. ${result.title}`, `   ${result.url}`, result.snippet ? `   ${result.snippet}` : ''].filter(Boolean).join('\n'));
  return [`Web results for "${query}":`, ...lines].join('\n\n');
}
