import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { executeBodies } from './shared/execute-bodies-loader.js';

// Keys in the order zod used to emit them: the JSON providers see, and their prompt caches, stay the same.
export const editFileInputSchema = {
  jsonSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to edit or create, relative to the workspace root.' },
      instructions: { type: 'string', description: 'One sentence saying what the edit does, in the first person ("I add a retry to fetchUser").' },
      code_edit: {
        type: 'string',
        description:
          'The new code of the edited regions only, with unchanged code in between replaced by a comment "... existing code ..." in the ' +
          "file's comment syntax (// ... existing code ..., # ... existing code ..., <!-- ... existing code ... -->).",
      },
    },
    required: ['path', 'instructions', 'code_edit'],
  },
} as const;

export type EditFileInput = FromSchema<typeof editFileInputSchema.jsonSchema>;

export const editFileTool = defineTool<EditFileInput>({
  id: 'edit',
  name: 'edit_file',
  description:
    'Edit a file by sending a sketch of the changed regions: write each region as it should become, and stand for unchanged code with a ' +
    'comment like "// ... existing code ..." (any comment syntax). Begin each region with an unchanged line of the file that is unique ' +
    'after the previous region (a function signature, a class line) and end it with an unchanged line (such as the closing brace); a region ' +
    'that begins with new code is placed by its unchanged last line. Start and end the sketch with a marker unless the edit really begins at ' +
    'the first line or reaches the last line. The merge is deterministic: when a region cannot be placed unambiguously the call fails and ' +
    'asks for search_replace. A sketch without markers on a new path creates the file.',
  inputSchema: editFileInputSchema,
  readOnly: false,
  category: 'fs',
  paths: (input) => [input.path],
  async execute(input, context) {
    return (await executeBodies()).executeEditFile(input, context);
  },
});
