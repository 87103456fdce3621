import { ToolError, type ToolResultContent } from '@cairn/core';
import { startFixtureServer } from '@cairn/core/testing';
import { describe, expect, it } from 'vitest';
import { createToolContext } from '../test/tool-context.js';
import { webTools, webToolsPlugin } from './plugin.js';
import type { WebSearchBackend } from './web-search-backend.js';
import { createWebSearchTool, webSearchTool } from './web-search-tool.js';

const textOf = (result: unknown) => (result as ToolResultContent).content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('web_search', () => {
  it('is not offered without a backend, and says so if called anyway', async () => {
    expect(webSearchTool.isEnabled?.({ cwd: '.', settings: {} })).toBe(false);
    expect(webSearchTool.isEnabled?.({ cwd: '.', settings: { webSearch: { backend: {} } } })).toBe(false);
    await expect(webSearchTool.execute({ query: 'x' }, createToolContext())).rejects.toSatisfy(
      (error) => ToolError.isInstance(error) && error.message.includes('No web search backend is configured'),
    );
  });

  it('queries a real HTTP backend from settings, passing the limit and the signal', async () => {
    // A backend that calls a local JSON search API, the shape of a SearXNG or Brave adapter.
    const server = await startFixtureServer([
      {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          results: [
            { title: 'Node streams', url: 'https://nodejs.org/api/stream.html', content: 'The   stream module\nprovides an API.' },
            { title: 'Second', url: 'https://example.com/2', content: '' },
            { title: 'Third', url: 'https://example.com/3', content: 'cut by the limit' },
          ],
        }),
      },
    ]);
    try {
      const seen: Array<{ limit: number; signal: AbortSignal }> = [];
      const backend: WebSearchBackend = {
        name: 'local',
        async search(query, options) {
          seen.push(options);
          const response = await fetch(`${server.url}/search?q=${encodeURIComponent(query)}&limit=${options.limit}`, { signal: options.signal });
          const body = (await response.json()) as { results: Array<{ title: string; url: string; content: string }> };
          return body.results.map((result) => ({ title: result.title, url: result.url, snippet: result.content }));
        },
      };
      const settings = { webSearch: { backend, limit: 2 } };
      expect(webSearchTool.isEnabled?.({ cwd: '.', settings })).toBe(true);
      const result = await webSearchTool.execute({ query: 'node streams' }, createToolContext({ settings }));
      expect(server.requests[0]!.url).toBe('/search?q=node%20streams&limit=2');
      expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
      expect(textOf(result)).toBe(
        'Web results for "node streams":\n\n1. Node streams\n   https://nodejs.org/api/stream.html\n   The stream module provides an API.\n\n2. Second\n   https://example.com/2',
      );
    } finally {
      await server.close();
    }
  });

  it('binds a backend with createWebSearchTool and turns backend failures into tool errors', async () => {
    const failing = createWebSearchTool({ search: async () => Promise.reject(new Error('quota exceeded')) });
    expect(failing.isEnabled?.({ cwd: '.', settings: {} })).toBe(true);
    await expect(failing.execute({ query: 'x' }, createToolContext())).rejects.toThrow('The web search failed: quota exceeded');
    const empty = createWebSearchTool({ search: async () => [] });
    expect(textOf(await empty.execute({ query: 'zzz' }, createToolContext()))).toBe('No web results for "zzz". Try other words.');
  });

  it('ships both tools in the plugin', () => {
    expect(webToolsPlugin.tools).toBe(webTools);
    expect(webTools.map((tool) => [tool.id, tool.name])).toEqual([
      ['webFetch', 'web_fetch'],
      ['webSearch', 'web_search'],
    ]);
  });
});
