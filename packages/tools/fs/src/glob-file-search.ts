import { defineTool, ToolError } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

/** Defaults; each can be overridden through the tool's settings (`toolSettings.glob`). */
export const globDefaults = { maxResults: 100, maxVisited: 50_000, maxDepth: 64, maxPatternLength: 1000 };

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const globFileSearchInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Glob pattern such as "*.ts" or "src/**/*.test.ts". Patterns not starting with "**/" match at any depth.' },
      path: { description: 'Folder to search in, relative to the workspace root. Default: the workspace root.', type: 'string' },
    },
    required: ['pattern'],
  },
} as const;

export type GlobFileSearchInput = FromSchema<typeof globFileSearchInputSchema.jsonSchema>;

/** `*.ts` -> `**\/*.ts`, `./src/*.ts` -> `**\/src/*.ts`; refuses patterns that leave the folder. */
export function normalizeGlobPattern(pattern: string): string {
  let normalized = pattern.trim().replace(/\\/g, '/');
  if (normalized === '') throw new ToolError('The glob pattern is empty.');
  if (normalized.startsWith('/') || /^[a-zA-Z]:\//.test(normalized)) {
    throw new ToolError('The glob pattern must be relative; pass the folder to search as path instead.');
  }
  if (normalized.split('/').includes('..')) throw new ToolError('The glob pattern must not contain "..": pass the folder to search as path instead.');
  normalized = normalized.replace(/^(\.\/)+/, '');
  return normalized.startsWith('**/') || normalized === '**' ? normalized : `**/${normalized}`;
}

export const globFileSearchTool = defineTool<GlobFileSearchInput>({
  id: 'glob',
  name: 'glob_file_search',
  description:
    `Find files by name pattern. Results are paths relative to the workspace root, newest first, at most ${globDefaults.maxResults}. ` +
    'Patterns not starting with "**/" match at any depth ("*.ts" finds every TypeScript file). Ignored files (.gitignore, .cairnignore, ' +
    'node_modules, ...) are left out; symbolic links to folders are not followed.',
  inputSchema: globFileSearchInputSchema,
  readOnly: true,
  category: 'search',
  paths: (input) => [input.path ?? '.'],
  async execute(input, context) {
    return (await executeBodies()).executeGlobFileSearch(input, context);
  },
});
