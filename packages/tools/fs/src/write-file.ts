import { defineTool } from '@cairn/core';
import { z } from 'zod';
import { throwIfAborted } from './shared/abort.js';
import { atomicWriteFile } from './shared/atomic-write.js';
import { loadCurrentFile } from './shared/current-file.js';
import { withFileLock } from './shared/file-lock.js';
import { assertUnchangedSinceRead, refreshSnapshotAfterWrite } from './shared/read-snapshots.js';
import { displayPathOf, resolveWriteTarget } from './shared/workspace-target.js';

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
    const resolved = await resolveWriteTarget(context, input.path, 'write');
    const displayPath = displayPathOf(resolved, input.path);
    return withFileLock(resolved.absolute, async () => {
      const current = await loadCurrentFile(resolved.absolute, displayPath);
      await assertUnchangedSinceRead(context, resolved.absolute, displayPath, current);
      const after = Buffer.from(input.contents, 'utf8');
      await atomicWriteFile(resolved.absolute, after, { root: context.cwd, displayPath, signal: context.signal });
      await context.recordFileChange({ path: resolved.absolute, before: current.bytes, after });
      await refreshSnapshotAfterWrite(context, resolved.absolute, after);
      const verb = current.bytes === null ? 'Created' : 'Overwrote';
      return `${verb} ${displayPath} (${countLines(input.contents)} lines, ${after.length} bytes).`;
    });
  },
});
