// Importing the pack loads only what registering its tools needs; the HTTP client, DNS and the HTML
// converter load at the first fetch (web-fetch-execute.ts, lazy-exports.ts).
export { blockedAddressReason, embeddedIpv4 } from './address-policy.js';
export { isHostAllowed } from './host-allow-list.js';
export { htmlToMarkdown, type PageMarkdown } from './html-to-markdown.js';
export { resolveTarget, systemResolver } from './lazy-exports.js';
export { webTools, webToolsPlugin } from './plugin.js';
export type { HostResolver, ResolvedAddress } from './resolve-target.js';
export { defaultWebFetchSettings, type ResolvedWebFetchSettings, resolveWebFetchSettings, type WebFetchSettings } from './web-fetch-settings.js';
export { createWebFetchTool, type WebFetchInput, webFetchInputSchema, type WebFetchToolOptions, webFetchTool } from './web-fetch-tool.js';
export {
  isWebSearchBackend, type WebSearchBackend, type WebSearchOptions, type WebSearchResult, type WebSearchSettings,
} from './web-search-backend.js';
export { createWebSearchTool, formatResults, type WebSearchInput, webSearchInputSchema, webSearchTool } from './web-search-tool.js';
