import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const searchReplaceInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to edit, relative to the workspace root.' },
      old_string: { type: 'string', description: 'The exact text to replace, including whitespace and indentation. Empty only to create a new file.' },
      new_string: { type: 'string', description: 'The text to put in its place (must differ from old_string).' },
      replace_all: { description: 'Replace every occurrence instead of requiring exactly one. Default false.', type: 'boolean' },
    },
    required: ['path', 'old_string', 'new_string'],
  },
} as const;

export type SearchReplaceInput = FromSchema<typeof searchReplaceInputSchema.jsonSchema>;

export const searchReplaceTool = defineTool<SearchReplaceInput>({
  id: 'edit',
  name: 'search_replace',
  description:
    'Replace an exact piece of text in a file. old_string must match the file exactly (whitespace included) and exactly once, unless ' +
    'replace_all is true; include enough surrounding lines to make it unique. Line endings and byte order marks are kept. ' +
    'With an empty old_string on a path that does not exist, the file is created with new_string. ' +
    'Fails if the file changed on disk since you read it.',
  inputSchema: searchReplaceInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    return (await executeBodies()).executeSearchReplace(input, context);
  },
});
