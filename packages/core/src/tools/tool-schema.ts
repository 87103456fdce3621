import type { JSONSchema } from '../spec/json.js';
import type { ToolInputSchema, ZodLikeSchema } from '../spec/tool/v1/index.js';

export function isJsonSchemaInput(schema: ToolInputSchema): schema is { jsonSchema: JSONSchema } {
  return typeof schema === 'object' && schema !== null && 'jsonSchema' in schema;
}

// Converting a zod schema costs more than a whole runtime step: do it once per schema object.
const converted = new WeakMap<object, JSONSchema>();

/** The JSON Schema a provider receives for a tool's input. */
export function toolInputJsonSchema(schema: ToolInputSchema): JSONSchema {
  if (isJsonSchemaInput(schema)) return schema.jsonSchema;
  const cached = converted.get(schema);
  if (cached) return cached;
  // zod v4 schemas convert themselves, so core never has to import zod (a large module) up front.
  const convertible = schema as { toJSONSchema?: (options: object) => JSONSchema };
  if (typeof convertible.toJSONSchema !== 'function') {
    throw new Error('A tool input schema must be a zod v4 schema or { jsonSchema }.');
  }
  const jsonSchema = convertible.toJSONSchema({ target: 'draft-7', io: 'input', unrepresentable: 'any' });
  delete jsonSchema.$schema;
  converted.set(schema, jsonSchema);
  return jsonSchema;
}

export type { ZodLikeSchema };
