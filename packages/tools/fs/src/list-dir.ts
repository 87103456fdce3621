import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.ls`). */
export const listDirDefaults = { maxDepth: 3, maxEntries: 500, maxVisited: 20_000 };

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const listDirInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { description: 'Folder to list, relative to the workspace root. Default: the workspace root.', type: 'string' },
      ignore: { description: 'Glob patterns of entries to leave out, e.g. ["*.test.ts", "fixtures/**"].', type: 'array', items: { type: 'string' } },
    },
  },
} as const;

export type ListDirInput = FromSchema<typeof listDirInputSchema.jsonSchema>;

export const listDirTool = defineTool<ListDirInput>({
  id: 'ls',
  name: 'list_dir',
  description:
    `List a folder of the workspace as a tree (${listDirDefaults.maxDepth} levels, at most ${listDirDefaults.maxEntries} entries). Folders end with "/", ` +
    'files show their size, symbolic links show their target and are not followed. Files ignored by .gitignore, .ignore, .cairnignore or ' +
    '.cursorignore are left out, as are node_modules and .git.',
  inputSchema: listDirInputSchema,
  readOnly: true,
  category: 'fs',
  paths: (input) => [input.path ?? '.'],
  async execute(input, context) {
    return (await executeBodies()).executeListDir(input, context);
  },
});
