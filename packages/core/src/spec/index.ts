// The contract: types and error classes only. Nothing here imports the runtime.
export * from './embedding-model/v1/index.js';
export * from './errors/index.js';
export * from './events/v1/index.js';
export type { JSONObject, JSONSchema, JSONValue, ProviderMetadata, ProviderOptions } from './json.js';
export * from './language-model/v1/index.js';
export * from './mcp/v1/index.js';
export * from './message/v1/index.js';
export * from './mode/v1/index.js';
export * from './plugin/v1/index.js';
export * from './provider/v1/index.js';
export * from './store/v1/index.js';
export * from './tool/v1/index.js';
