import { ConfigurationError } from '../spec/errors/index.js';
import type { JSONSchema } from '../spec/json.js';
import type { CustomTool, ToolDefinition, ToolInputSchema } from '../spec/tool/v1/index.js';
import { customToolsServer } from '../permissions/permission-rules.js';
import { jsonSchemaProblem } from '../tools/json-schema-check.js';
import { inputSchemaForm, isForeignValidator, toolInputJsonSchema } from '../tools/tool-schema.js';
import { withStructuredContentForModel } from './tool-result.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const customToolFields = new Set(['description', 'inputSchema', 'execute', 'readOnly', 'timeoutMs']);
/** The schema of a tool without arguments; one object, so its validator is built once. */
const noArguments: JSONSchema = { type: 'object', properties: {} };

/**
 * Check `local.customTools` and turn them into tool definitions (category `custom`, in the `mcp`
 * group for tools/disallowedTools and rules). As in the reference SDK they form the in-process MCP
 * server `custom-user-tools`: their rule subject is `custom-user-tools:<name>` (rules
 * `mcp(custom-user-tools:*)`), which also lets them skip interactive approval. They keep their bare
 * names for the model, and no JSON-RPC or child process is involved. Runs at Agent.create, Agent.resume and every send
 * that replaces them, so a bad tool is a ConfigurationError naming it there and never a failed run.
 * `builtInTools` are the registry's tools: a custom tool may not take one of their names, which
 * the provider would refuse as a duplicate.
 */
export function validateCustomTools(customTools: Record<string, CustomTool> | undefined, builtInTools: readonly ToolDefinition[] = []): ToolDefinition[] {
  if (customTools === undefined) return [];
  if (typeof customTools !== 'object' || customTools === null || Array.isArray(customTools)) {
    throw new ConfigurationError('local.customTools must be an object that maps each tool name to { description, inputSchema, execute }.');
  }
  const taken = new Set(builtInTools.map((tool) => tool.name));
  return Object.entries(customTools).map(([name, tool]) => {
    if (!toolNamePattern.test(name)) throw new ConfigurationError(`Custom tool name "${name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
    if (taken.has(name)) throw new ConfigurationError(`Custom tool "${name}" has the name of a built-in tool: rename it (the model must be able to tell them apart).`);
    return toolDefinition(name, tool);
  });
}

function toolDefinition(name: string, tool: CustomTool): ToolDefinition {
  const where = `Custom tool "${name}"`;
  if (typeof tool !== 'object' || tool === null) throw new ConfigurationError(`${where} must be an object { description, inputSchema, execute }.`);
  const unknown = Object.keys(tool).filter((key) => !customToolFields.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`${where} has unknown field ${unknown.join(', ')}: a custom tool takes description, inputSchema, execute, readOnly and timeoutMs.`);
  if (typeof tool.execute !== 'function') throw new ConfigurationError(`${where} needs an execute function: execute(args, context) returns what the model sees.`);
  if (tool.description !== undefined && typeof tool.description !== 'string') throw new ConfigurationError(`${where}: description must be a string.`);
  if (tool.readOnly !== undefined && typeof tool.readOnly !== 'boolean') throw new ConfigurationError(`${where}: readOnly must be true or false.`);
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === 'number' && Number.isFinite(tool.timeoutMs) && tool.timeoutMs > 0)) {
    throw new ConfigurationError(`${where}: timeoutMs must be a positive number of milliseconds.`);
  }
  return {
    id: name,
    name,
    description: tool.description ?? '',
    inputSchema: customInputSchema(where, tool.inputSchema),
    readOnly: tool.readOnly ?? false,
    ...(tool.readOnly ? { readOnlyHint: true } : {}),
    category: 'custom',
    ruleSubject: () => `${customToolsServer}:${name}`,
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    execute: async (input, context) => withStructuredContentForModel(await tool.execute(input, context)),
  };
}

/** The documented plain JSON Schema, Cairn's `{ jsonSchema }` or zod v4, as the runtime's input schema. */
function customInputSchema(where: string, schema: CustomTool['inputSchema']): ToolInputSchema {
  if (schema === undefined) return { jsonSchema: noArguments };
  const fix = 'Give a JSON Schema such as { type: "object", properties: { name: { type: "string" } }, required: ["name"] }, or leave inputSchema out for a tool without arguments.';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new ConfigurationError(`${where}: inputSchema is not an object. ${fix}`);
  const form = inputSchemaForm(schema);
  if (form === 'zod') return checkedZodSchema(where, schema as ToolInputSchema);
  if (isForeignValidator(schema)) throw new ConfigurationError(`${where}: inputSchema is a validator Cairn cannot turn into JSON Schema (zod v3?). Use zod v4 or a plain JSON Schema.`);
  const jsonSchema = form === 'wrapped-json-schema' ? (schema as { jsonSchema: unknown }).jsonSchema : schema;
  const problem = jsonSchemaProblem(jsonSchema);
  if (problem) throw new ConfigurationError(`${where}: inputSchema cannot be used: ${problem}. ${fix}`);
  return { jsonSchema: jsonSchema as JSONSchema };
}

function checkedZodSchema(where: string, schema: ToolInputSchema): ToolInputSchema {
  let jsonSchema: JSONSchema;
  try {
    // Converted (and cached) now, so a schema zod cannot express fails here and not at the first request.
    jsonSchema = toolInputJsonSchema(schema);
  } catch (error) {
    throw new ConfigurationError(`${where}: its zod inputSchema cannot be turned into JSON Schema: ${(error as Error).message}.`);
  }
  if (jsonSchema.type !== 'object') throw new ConfigurationError(`${where}: inputSchema must describe an object of arguments: use z.object({...}).`);
  return schema;
}
