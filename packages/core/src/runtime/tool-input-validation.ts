import type AjvClass from 'ajv';
import type { JSONSchema } from '../spec/json.js';
import type { ToolInputSchema, ZodLikeSchema } from '../spec/tool/v1/index.js';
import { isJsonSchemaInput } from '../tools/tool-schema.js';

import { lazyRequire } from '../util/lazy-require.js';

// ajv is loaded the first time a tool declared with plain JSON Schema is called.
const loadAjv = lazyRequire<typeof AjvClass>('ajv');
let ajv: AjvClass | undefined;
const compiled = new WeakMap<JSONSchema, ReturnType<AjvClass['compile']>>();

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Validate model-supplied arguments against a tool's zod or JSON Schema; the message is for the model. */
export function validateToolInput(schema: ToolInputSchema, value: unknown): ValidationResult {
  if (isJsonSchemaInput(schema)) {
    let validate = compiled.get(schema.jsonSchema);
    if (!validate) {
      ajv ??= new (loadAjv())({ allErrors: true, strict: false });
      validate = ajv.compile(schema.jsonSchema);
      compiled.set(schema.jsonSchema, validate);
    }
    if (validate(value)) return { ok: true, value };
    const message = (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`).join('; ');
    return { ok: false, message };
  }
  const result = (schema as ZodLikeSchema).safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = (result.error.issues ?? []) as Array<{ path?: Array<string | number>; message?: string }>;
  const message = issues.length > 0 ? issues.map((issue) => `${issue.path?.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ') : result.error.message;
  return { ok: false, message };
}
