import { Validator } from '@cfworker/json-schema';
import type { JSONSchema } from '../spec/json.js';
import type { ToolInputSchema, ZodLikeSchema } from '../spec/tool/v1/index.js';
import { isJsonSchemaInput } from '../tools/tool-schema.js';

// @cfworker/json-schema interprets the schema instead of generating code: ajv's load and compile
// cost ~120 ms on the first call of a tool, more than a whole run of steps.
const validators = new WeakMap<JSONSchema, Validator>();

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Validate model-supplied arguments against a tool's zod or JSON Schema; the message is for the model. */
export function validateToolInput(schema: ToolInputSchema, value: unknown): ValidationResult {
  if (isJsonSchemaInput(schema)) {
    let validator = validators.get(schema.jsonSchema);
    if (!validator) {
      validator = new Validator(schema.jsonSchema as ConstructorParameters<typeof Validator>[0], '2020-12', false);
      validators.set(schema.jsonSchema, validator);
    }
    const result = validator.validate(value);
    if (result.valid) return { ok: true, value };
    // The innermost errors name the field; the outer ones only repeat that a subschema failed.
    const errors = result.errors.filter((error) => !/^(properties|items|allOf|anyOf|\$ref)$/.test(error.keyword));
    const message = (errors.length ? errors : result.errors).map((error) => `${error.instanceLocation.replace(/^#\/?/, '') || '(root)'}: ${error.error}`).join('; ');
    return { ok: false, message };
  }
  const parsed = (schema as ZodLikeSchema).safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = (parsed.error.issues ?? []) as Array<{ path?: Array<string | number>; message?: string }>;
  const message = issues.length > 0 ? issues.map((issue) => `${issue.path?.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ') : parsed.error.message;
  return { ok: false, message };
}
