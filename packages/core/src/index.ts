export * from './spec/index.js';
export { defineTool } from './tools/define-tool.js';
export { isJsonSchemaInput, toolInputJsonSchema } from './tools/tool-schema.js';
