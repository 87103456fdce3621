// The fallback agent mode lives with the registry, which answers `registry.mode('agent')` with it;
// re-exported here so existing imports keep working.
export { fallbackAgentMode } from '../registry/fallbacks.js';
