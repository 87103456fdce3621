import type { JSONSchema } from '../spec/json.js';
import type { OutputUnit } from '@cfworker/json-schema';
import { jsonSchemaValidator } from '../runtime/tool-input-validation.js';

const schema = { $ref: '#/$defs/schema' };
const schemaMap = { type: 'object', additionalProperties: schema };
const schemaList = { type: 'array', minItems: 1, items: schema };
const typeName = { enum: ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] };
const count = { type: 'integer', minimum: 0 };
const number = { type: 'number' };

/**
 * The shape of the keywords tool schemas use, as a JSON Schema itself: a typo like `type: "strng"`,
 * `required: "name"` or a `pattern` that is no regular expression would be accepted by the validator
 * (it ignores what it does not understand) and then refused by the provider on the first request.
 */
const schemaShape: JSONSchema = {
  $ref: '#/$defs/schema',
  $defs: {
    schema: {
      type: ['object', 'boolean'],
      properties: {
        type: { anyOf: [typeName, { type: 'array', minItems: 1, uniqueItems: true, items: typeName }] },
        properties: schemaMap,
        patternProperties: { ...schemaMap, propertyNames: { format: 'regex' } },
        additionalProperties: schema,
        unevaluatedProperties: schema,
        propertyNames: schema,
        required: { type: 'array', uniqueItems: true, items: { type: 'string' } },
        items: { anyOf: [schema, { type: 'array', items: schema }] },
        prefixItems: schemaList,
        additionalItems: schema,
        contains: schema,
        allOf: schemaList,
        anyOf: schemaList,
        oneOf: schemaList,
        not: schema,
        if: schema,
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a plain data object.
        then: schema,
        else: schema,
        $defs: schemaMap,
        definitions: schemaMap,
        dependentSchemas: schemaMap,
        enum: { type: 'array' },
        pattern: { type: 'string', format: 'regex' },
        format: { type: 'string' },
        $ref: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        minLength: count,
        maxLength: count,
        minItems: count,
        maxItems: count,
        minProperties: count,
        maxProperties: count,
        minimum: number,
        maximum: number,
        exclusiveMinimum: number,
        exclusiveMaximum: number,
        multipleOf: { type: 'number', exclusiveMinimum: 0 },
        uniqueItems: { type: 'boolean' },
      },
    },
  },
};

/**
 * Why a tool's plain JSON Schema cannot be used, or undefined when it can: it must be JSON data
 * with `type: "object"` at the root (every provider requires it), well-formed keywords, local
 * `$ref`s that resolve, and a validator @cfworker/json-schema can build.
 */
export function jsonSchemaProblem(candidate: unknown): string | undefined {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return 'it is not an object';
  const tool = candidate as JSONSchema;
  try {
    JSON.stringify(tool);
  } catch (error) {
    return `it is not JSON data (${(error as Error).message})`;
  }
  if (tool.type !== 'object') return `its root must be { type: "object", properties: {...} } (got type ${JSON.stringify(tool.type) ?? 'undefined'})`;
  const shape = jsonSchemaValidator(schemaShape).validate(tool);
  if (!shape.valid) return describeShapeErrors(shape.errors);
  const reference = unresolvedReference(tool);
  if (reference) return reference;
  try {
    // Building the validator and running it once resolves what is left (duplicate $ids, anchors).
    jsonSchemaValidator(tool).validate({});
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
  return undefined;
}

/** The first error of each keyword location, without the wrappers that only say a subschema failed. */
function describeShapeErrors(errors: OutputUnit[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const error of errors) {
    if (/^(properties|additionalProperties|anyOf|allOf|items|\$ref)$/.test(error.keyword)) continue;
    const location = error.instanceLocation.replace(/^#\/?/, '') || '(root)';
    if (seen.has(location)) continue;
    seen.add(location);
    lines.push(`at ${location}: ${error.error.replace(/\.$/, '')}`);
  }
  return lines.slice(0, 3).join('; ') || 'it is not a valid JSON Schema';
}

/**
 * The first `$ref` that does not resolve. Only references inside the schema are followed (`#/...`
 * pointers and `#anchor`s): providers never fetch remote schemas, so a remote `$ref` is refused.
 */
function unresolvedReference(root: JSONSchema): string | undefined {
  const anchors = new Set<string>();
  const references: string[] = [];
  let hasIds = false;
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(visit);
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string') references.push(object.$ref);
    if (typeof object.$anchor === 'string') anchors.add(object.$anchor);
    if (object !== root && (typeof object.$id === 'string' || typeof object.id === 'string')) hasIds = true;
    Object.values(object).forEach(visit);
  };
  visit(root);
  // Nested $ids change what relative references mean: the validator resolves those itself.
  if (hasIds) return undefined;
  for (const reference of references) {
    if (!reference.startsWith('#')) return `$ref "${reference}" points outside the schema: providers do not fetch remote schemas, so put it under $defs and use "#/$defs/..."`;
    const fragment = decodeURIComponent(reference.slice(1));
    const resolves = fragment === '' || (fragment.startsWith('/') ? pointerTarget(root, fragment) !== undefined : anchors.has(fragment));
    if (!resolves) return `$ref "${reference}" does not resolve to anything in the schema`;
  }
  return undefined;
}

function pointerTarget(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
