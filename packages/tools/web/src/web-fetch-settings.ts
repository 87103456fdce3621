/** `toolSettings.webFetch`: read from `context.settings.webFetch`. */
export interface WebFetchSettings {
  /**
   * Hosts that may resolve to private, loopback or link-local addresses: `localhost`, `127.0.0.1`,
   * `[::1]`, `intranet.example`, or `host:port` to allow only one port. Matched against the URL's
   * host name, before DNS. Empty by default: only public addresses are fetched.
   */
  allowPrivateHosts?: string[];
  /** Most bytes downloaded (after decompression). Default 5 MB. */
  maxBytes?: number;
  /** Most characters of markdown returned to the model. Default 100,000. */
  maxMarkdownChars?: number;
  /** Whole-fetch time limit, redirects included. Default 30 s. */
  timeoutMs?: number;
  /** Most redirects followed. Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

export interface ResolvedWebFetchSettings {
  allowPrivateHosts: string[];
  maxBytes: number;
  maxMarkdownChars: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
}

export const defaultWebFetchSettings: ResolvedWebFetchSettings = {
  allowPrivateHosts: [],
  maxBytes: 5 * 1024 * 1024,
  maxMarkdownChars: 100_000,
  timeoutMs: 30_000,
  maxRedirects: 5,
  userAgent: 'Mozilla/5.0 (compatible; CairnAgent/0.1; +https://www.npmjs.com/package/@cairn/tools-web)',
};

export function resolveWebFetchSettings(settings: Record<string, unknown>): ResolvedWebFetchSettings {
  const given = (settings.webFetch ?? {}) as WebFetchSettings;
  const positive = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback);
  return {
    allowPrivateHosts: Array.isArray(given.allowPrivateHosts) ? given.allowPrivateHosts.filter((host) => typeof host === 'string') : [],
    maxBytes: positive(given.maxBytes, defaultWebFetchSettings.maxBytes),
    maxMarkdownChars: positive(given.maxMarkdownChars, defaultWebFetchSettings.maxMarkdownChars),
    timeoutMs: positive(given.timeoutMs, defaultWebFetchSettings.timeoutMs),
    maxRedirects: typeof given.maxRedirects === 'number' && given.maxRedirects >= 0 ? given.maxRedirects : defaultWebFetchSettings.maxRedirects,
    userAgent: typeof given.userAgent === 'string' && given.userAgent ? given.userAgent : defaultWebFetchSettings.userAgent,
  };
}
