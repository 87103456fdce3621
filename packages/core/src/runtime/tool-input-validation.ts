import { type OutputUnit, Validator } from '@cfworker/json-schema';
import type { JSONSchema } from '../spec/json.js';
import type { ToolInputSchema, ZodLikeSchema } from '../spec/tool/v1/index.js';
import { isJsonSchemaInput } from '../tools/tool-schema.js';

// @cfworker/json-schema interprets the schema instead of generating code: ajv's load and compile
// cost ~120 ms on the first call of a tool, more than a whole run of steps.
const validators = new WeakMap<JSONSchema, Validator>();

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/** The validator of a JSON Schema, built once per schema object (custom tools build theirs when the agent is created). */
export function jsonSchemaValidator(schema: JSONSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as ConstructorParameters<typeof Validator>[0], '2020-12', false);
    validators.set(schema, validator);
  }
  return validator;
}

/** Validate model-supplied arguments against a tool's zod or JSON Schema; the message is for the model. */
export function validateToolInput(schema: ToolInputSchema, value: unknown): ValidationResult {
  if (isJsonSchemaInput(schema)) {
    const result = jsonSchemaValidator(schema.jsonSchema).validate(value);
    if (result.valid) return { ok: true, value };
    return { ok: false, message: describeValidationErrors(result.errors) };
  }
  const parsed = (schema as ZodLikeSchema).safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = (parsed.error.issues ?? []) as Array<{ path?: Array<string | number>; message?: string }>;
  const message = issues.length > 0 ? issues.map((issue) => `${issue.path?.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ') : parsed.error.message;
  return { ok: false, message };
}

/** `field: problem; ...` for the errors of one validation. */
export function describeValidationErrors(errors: OutputUnit[]): string {
  // The innermost errors name the field; the outer ones only repeat that a subschema failed.
  const inner = errors.filter((error) => !/^(properties|items|allOf|anyOf|\$ref)$/.test(error.keyword));
  return (inner.length ? inner : errors).map((error) => `${error.instanceLocation.replace(/^#\/?/, '') || '(root)'}: ${error.error}`).join('; ');
}
