import type { JSONSchema } from '../spec/json.js';
import type { ToolInputSchema, ZodLikeSchema } from '../spec/tool/v1/index.js';

export function isJsonSchemaInput(schema: ToolInputSchema): schema is { jsonSchema: JSONSchema } {
  return typeof schema === 'object' && schema !== null && 'jsonSchema' in schema;
}

/** What a custom tool's `inputSchema` is. A plain JSON Schema is whatever is neither of the other two. */
export type InputSchemaForm = 'zod' | 'wrapped-json-schema' | 'json-schema';

/**
 * Tells the three accepted forms apart: zod v4 marks its schemas with `_zod`; Cairn's wrapper is an
 * object whose only key is `jsonSchema` (no JSON Schema keyword has that name, so a real schema
 * never looks like it); any other object is taken as a plain JSON Schema and checked as one.
 */
export function inputSchemaForm(schema: object): InputSchemaForm {
  if ('_zod' in schema) return 'zod';
  const keys = Object.keys(schema);
  if (keys.length === 1 && keys[0] === 'jsonSchema') return 'wrapped-json-schema';
  return 'json-schema';
}

/** A zod v3 (or other standard-schema) validator: Cairn needs its JSON Schema and cannot get one. */
export function isForeignValidator(schema: object): boolean {
  return !('_zod' in schema) && typeof (schema as { safeParse?: unknown }).safeParse === 'function';
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
