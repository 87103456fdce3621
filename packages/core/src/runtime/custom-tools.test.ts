import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../spec/errors/index.js';
import type { CustomTool, SDKCustomTool } from '../spec/tool/v1/index.js';
import { validateCustomTools } from './custom-tools.js';
import { validateToolInput } from './tool-input-validation.js';
import { toolInputJsonSchema } from '../tools/tool-schema.js';

const execute = () => 'ok';
const deploymentSchema = { type: 'object', properties: { service: { type: 'string', description: 'Service name' } }, required: ['service'] };

function rejection(tools: Record<string, unknown>): string {
  try {
    validateCustomTools(tools as Record<string, CustomTool>);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('validateCustomTools', () => {
  it('takes the documented plain JSON Schema, Cairn’s { jsonSchema }, zod v4, and no schema (no arguments)', () => {
    const documented: SDKCustomTool = { description: 'Look up a deployment.', inputSchema: deploymentSchema, execute: ({ service }) => `${String(service)} is live` };
    const [plain, wrapped, zod, none] = validateCustomTools({
      plain: documented,
      wrapped: { description: 'w', inputSchema: { jsonSchema: deploymentSchema }, execute },
      zod: { description: 'z', inputSchema: z.object({ service: z.string() }), execute },
      none: { execute },
    });
    for (const tool of [plain!, wrapped!]) {
      expect(toolInputJsonSchema(tool.inputSchema)).toBe(deploymentSchema);
      expect(validateToolInput(tool.inputSchema, { service: 'checkout' })).toEqual({ ok: true, value: { service: 'checkout' } });
      expect(validateToolInput(tool.inputSchema, {}).ok).toBe(false);
    }
    expect(toolInputJsonSchema(zod!.inputSchema)).toMatchObject({ type: 'object', required: ['service'] });
    expect(toolInputJsonSchema(none!.inputSchema)).toEqual({ type: 'object', properties: {} });
    expect(none).toMatchObject({ name: 'none', description: '', category: 'custom', readOnly: false });
  });

  it('a plain schema that has a property named jsonSchema is still a plain schema', () => {
    const schema = { type: 'object', properties: { jsonSchema: { type: 'string' } } };
    const [tool] = validateCustomTools({ t: { inputSchema: schema, execute } });
    expect(toolInputJsonSchema(tool!.inputSchema)).toBe(schema);
  });

  it('refuses bad schemas, names and tools with a ConfigurationError naming the tool', () => {
    expect(rejection({ lookup: { inputSchema: { type: 'string' }, execute } })).toMatch(/Custom tool "lookup": inputSchema cannot be used: its root must be \{ type: "object"/);
    expect(rejection({ lookup: { inputSchema: { properties: {} }, execute } })).toMatch(/got type undefined/);
    expect(rejection({ lookup: { inputSchema: 'object', execute } })).toMatch(/"lookup": inputSchema is not an object/);
    expect(rejection({ lookup: { inputSchema: { type: 'object', properties: { a: { type: 'strng' } } }, execute } })).toMatch(/"lookup".*properties\/a\/type/);
    expect(rejection({ lookup: { inputSchema: { type: 'object', required: 'a' }, execute } })).toMatch(/required/);
    expect(rejection({ lookup: { inputSchema: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, execute } })).toMatch(/pattern/);
    expect(rejection({ lookup: { inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, execute } })).toMatch(/\$ref "#\/\$defs\/missing" does not resolve/);
    expect(rejection({ lookup: { inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }, execute } })).toMatch(/points outside the schema/);
    expect(rejection({ lookup: { inputSchema: z.string(), execute } })).toMatch(/use z.object/);
    expect(rejection({ lookup: { inputSchema: { safeParse: () => ({ success: true, data: {} }) }, execute } })).toMatch(/zod v3/);
    expect(rejection({ 'bad name': { execute } })).toMatch(/Custom tool name "bad name" is invalid/);
    expect(rejection({ lookup: { description: 'no execute' } })).toMatch(/"lookup" needs an execute function/);
    expect(rejection({ lookup: { execute, parameters: {} } })).toMatch(/"lookup" has unknown field parameters/);
    expect(rejection({ lookup: { execute, timeoutMs: -1 } })).toMatch(/timeoutMs/);
  });

  it('accepts local $refs and anchors', () => {
    const schema = { type: 'object', $defs: { name: { type: 'string' }, id: { $anchor: 'id', type: 'integer' } }, properties: { a: { $ref: '#/$defs/name' }, b: { $ref: '#id' } } };
    const [tool] = validateCustomTools({ t: { inputSchema: schema, execute } });
    expect(validateToolInput(tool!.inputSchema, { a: 'x', b: 2 }).ok).toBe(true);
    expect(validateToolInput(tool!.inputSchema, { a: 1 }).ok).toBe(false);
  });

  it('refuses the name of a built-in tool', () => {
    const builtIn = validateCustomTools({ read_file: { execute } });
    expect(() => validateCustomTools({ read_file: { execute } }, builtIn)).toThrow(/has the name of a built-in tool/);
  });
});
