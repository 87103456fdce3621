import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.read`). */
export const readFileDefaults = {
  maxLines: 2000,
  maxLineChars: 2000,
  maxOutputChars: 256 * 1024,
  /** UTF-8 bytes of one read's text (~16k tokens): a single call cannot flood a small context window. */
  maxOutputBytes: 64 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
};

// Keys in the order zod used to emit them (with its MAX_SAFE_INTEGER bound on integers): the JSON
// providers see, and their prompt caches, stay the same.
export const readFileInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file, relative to the workspace root (or absolute inside it).' },
      offset: { description: '1-based line number to start reading from. Default 1.', type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      limit: { description: `Number of lines to read. Default ${readFileDefaults.maxLines}.`, type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    },
    required: ['path'],
  },
} as const;

export type ReadFileInput = FromSchema<typeof readFileInputSchema.jsonSchema>;

export const readFileTool = defineTool<ReadFileInput>({
  id: 'read',
  name: 'read_file',
  description:
    'Read a file of the workspace. Text comes back as numbered lines "     N|text" (the number and "|" are not part of the file). ' +
    `At most ${readFileDefaults.maxLines} lines or ${readFileDefaults.maxOutputBytes / 1024} KB per call; when more remain, the result says which offset to pass next. ` +
    'Very long lines are cut. PNG, JPEG, GIF and WebP images come back as images. Binary files, pipes and devices are refused.',
  inputSchema: readFileInputSchema,
  readOnly: true,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    return (await executeBodies()).executeReadFile(input, context);
  },
});
