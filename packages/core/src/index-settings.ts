// `@cairn/core/index-settings`: where `cairn index` / `cairn search` find their embedding model (the
// `index` section of settings.json and the setting sources it is read from), and nothing else of the
// runtime: `cairn search` answers in a few hundred milliseconds only if it does not load the agent,
// the run machine, xstate and zod (`@cairn/core/node`, about 100 ms) to read one JSON file. The same
// functions as `@cairn/core/node`'s (one module each).
export { type IndexSettings, loadIndexSettings } from './config/index-settings.js';
export { type ResolvedSettingSources, resolveSettingSources } from './config/setting-sources.js';
export { cairnHome } from './config/workspace-config.js';
