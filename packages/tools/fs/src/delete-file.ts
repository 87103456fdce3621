import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const deleteFileInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to delete, relative to the workspace root.' },
    },
    required: ['path'],
  },
} as const;

export type DeleteFileInput = FromSchema<typeof deleteFileInputSchema.jsonSchema>;

export const deleteFileTool = defineTool<DeleteFileInput>({
  id: 'delete',
  name: 'delete_file',
  description:
    'Delete one file of the workspace. A symbolic link is removed itself, never its target. Folders and the workspace root are refused.',
  inputSchema: deleteFileInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    return (await executeBodies()).executeDeleteFile(input, context);
  },
});
