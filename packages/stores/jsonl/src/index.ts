export { createJsonlStore, type JsonlStore, type JsonlStoreOptions } from './jsonl-store.js';
export { JsonlLocalAgentStore, type JsonlLocalAgentStoreOptions } from './jsonl-local-agent-store.js';
export { fileNames as jsonlFileNames, type JsonlWarning } from './jsonl-state.js';
export { jsonlStorePlugin } from './plugin.js';
