import { defineTool } from '@cairn/core';
import type { FromSchema } from 'json-schema-to-ts';
import { throwIfAborted } from './shared/abort.js';
import { commitFileChange } from './shared/commit-change.js';
import { loadCurrentFile } from './shared/current-file.js';
import { withFileLock } from '@cairn/core/node';
import { assertUnchangedSinceRead } from './shared/read-snapshots.js';
import { withWriteTarget } from './shared/workspace-target.js';

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

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

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
    throwIfAborted(context.signal);
    return withWriteTarget(context, input.path, 'write', (target) =>
      withFileLock(target.resolved.absolute, async () => {
        const current = await loadCurrentFile(context.cwd, target);
        assertUnchangedSinceRead(context, target.resolved.absolute, target.displayPath, current);
        await commitFileChange(context, target, input.path, current, Buffer.from(input.contents, 'utf8'));
        const verb = current.bytes === null ? 'Created' : 'Overwrote';
        return `${verb} ${target.displayPath} (${countLines(input.contents)} lines, ${Buffer.byteLength(input.contents)} bytes).`;
      }),
    );
  },
});
