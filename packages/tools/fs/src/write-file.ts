import { defineTool } from '@cairn/core';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { commitFileChange } from './shared/commit-change.js';
import { loadCurrentFile } from './shared/current-file.js';
import { withFileLock } from '@cairn/core/node';
import { assertUnchangedSinceRead } from './shared/read-snapshots.js';
import { withWriteTarget } from './shared/workspace-target.js';

export const writeInputSchema = z.object({
  path: z.string().describe('Path of the file to create or overwrite, relative to the workspace root.'),
  contents: z.string().describe('The complete new contents of the file.'),
});

export type WriteInput = z.infer<typeof writeInputSchema>;

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
