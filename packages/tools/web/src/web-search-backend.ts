/** One search hit as the model sees it. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearchOptions {
  /** Aborts on cancel and on the tool's timeout; pass it to your HTTP client. */
  signal: AbortSignal;
  /** Most results wanted. */
  limit: number;
}

/**
 * A search engine adapter (Brave, Bing, Exa, SearXNG, an internal index...). Cairn ships none, so no
 * search provider or key is implied; `web_search` is offered only when one is configured.
 */
export interface WebSearchBackend {
  /** Shown in results and logs, e.g. "brave". */
  name?: string;
  search(query: string, options: WebSearchOptions): Promise<WebSearchResult[]>;
}

/** `toolSettings.webSearch`: read from `context.settings.webSearch`. */
export interface WebSearchSettings {
  backend?: WebSearchBackend;
  /** Results per query. Default 8. */
  limit?: number;
  /** Default 30 s. */
  timeoutMs?: number;
}

export function isWebSearchBackend(value: unknown): value is WebSearchBackend {
  return typeof value === 'object' && value !== null && typeof (value as WebSearchBackend).search === 'function';
}
