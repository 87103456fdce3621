export { blockedAddressReason, embeddedIpv4 } from './address-policy.js';
export { htmlToMarkdown, type PageMarkdown } from './html-to-markdown.js';
export { webTools, webToolsPlugin } from './plugin.js';
export { type HostResolver, isHostAllowed, type ResolvedAddress, resolveTarget, systemResolver } from './resolve-target.js';
export { defaultWebFetchSettings, type ResolvedWebFetchSettings, resolveWebFetchSettings, type WebFetchSettings } from './web-fetch-settings.js';
export { createWebFetchTool, type WebFetchInput, webFetchInputSchema, type WebFetchToolOptions, webFetchTool } from './web-fetch-tool.js';
export {
  isWebSearchBackend, type WebSearchBackend, type WebSearchOptions, type WebSearchResult, type WebSearchSettings,
} from './web-search-backend.js';
export { createWebSearchTool, formatResults, type WebSearchInput, webSearchInputSchema, webSearchTool } from './web-search-tool.js';
