import { readFile } from 'node:fs/promises';
import { defineTool, ToolError } from '@cairn/core';
import { resolveWorkspacePath } from '@cairn/core/node';

/**
 * The contributor guide's example tool. `readOnly: true` is all it takes to be offered in the
 * read-only modes (plan, ask and this package's review mode), whatever its category.
 */
export const lineCountTool = defineTool<{ path: string }>({
  id: 'lineCount',
  name: 'line_count',
  description: 'Count the lines of a text file in the workspace.',
  inputSchema: {
    jsonSchema: { type: 'object', properties: { path: { type: 'string', description: 'File path relative to the workspace' } }, required: ['path'], additionalProperties: false },
  },
  readOnly: true,
  category: 'custom',
  paths: (input) => [input.path],
  async execute({ path }, context) {
    // Refuses paths that leave the workspace, symlinks included.
    const target = await resolveWorkspacePath(context.cwd, path);
    const text = await readFile(target.absolute, { encoding: 'utf8', signal: context.signal }).catch((error: NodeJS.ErrnoException) => {
      throw new ToolError(error.code === 'ENOENT' ? `${target.relative} does not exist. List the folder to find the file.` : `${target.relative} cannot be read: ${error.message}`);
    });
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    return `${target.relative}: ${lines} line${lines === 1 ? '' : 's'}`;
  },
});
