import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const writeInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to create or overwrite, relative to the workspace root.' },
      contents: { type: 'string', description: 'The complete new contents of the file.' },
    },
    required: ['path', 'contents'],
  },
} as const;

export type WriteInput = FromSchema<typeof writeInputSchema.jsonSchema>;

export const writeTool = defineTool<WriteInput>({
  id: 'write',
  name: 'write',
  description:
    'Create a file or replace its whole contents (missing folders are created). Prefer search_replace or edit_file to change part of an ' +
    'existing file. An existing file you read earlier is not overwritten if it changed on disk since; read it again first.',
  inputSchema: writeInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    return (await executeBodies()).executeWrite(input, context);
  },
});
