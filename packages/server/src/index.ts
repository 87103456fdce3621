export { type CairnServer, startCairnServer } from './cairn-server.js';
export type { CairnServerOptions } from './server-options.js';
export { apiVersion } from './version.js';
// For products that serve runs from their own HTTP stack: the AI SDK UI message stream of a run.
export { lastUserText, uiChunksOfRun, uiChunksToSse, uiMessageStreamHeaders } from './ui-stream/index.js';
export type { UIChunk } from './ui-stream/index.js';
