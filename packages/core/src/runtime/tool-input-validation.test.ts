import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { validateToolInput } from './tool-input-validation.js';

const jsonSchema = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['path'], additionalProperties: false };

describe('validateToolInput', () => {
  it('accepts valid JSON Schema input and names the failing field otherwise', () => {
    expect(validateToolInput({ jsonSchema }, { path: 'a.ts', limit: 2 })).toEqual({ ok: true, value: { path: 'a.ts', limit: 2 } });
    const missing = validateToolInput({ jsonSchema }, { limit: 2 });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/path/);
    const wrongType = validateToolInput({ jsonSchema }, { path: 3 });
    expect(!wrongType.ok && wrongType.message).toMatch(/^path: /);
    const tooSmall = validateToolInput({ jsonSchema }, { path: 'a', limit: 0 });
    expect(!tooSmall.ok && tooSmall.message).toMatch(/limit/);
  });

  it('validates zod schemas with their own parser, keeping transformed values', () => {
    const schema = z.object({ count: z.coerce.number() });
    expect(validateToolInput(schema, { count: '3' })).toEqual({ ok: true, value: { count: 3 } });
    const failed = validateToolInput(schema, {});
    expect(!failed.ok && failed.message).toMatch(/^count: /);
  });
});
