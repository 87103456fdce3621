import { link, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError, type ToolDefinition } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { deleteFileTool } from './delete-file.js';
import { editFileTool } from './edit-file.js';
import { globFileSearchTool } from './glob-file-search.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { searchReplaceTool } from './search-replace.js';
import { createTestToolContext, createWorkspace, run } from './test-support/tool-context.js';
import { writeTool } from './write-file.js';

/** Each tool with the input that aims it at a path (the secret file, or its folder for ls/glob). */
const tools: Array<{ tool: ToolDefinition; input: (path: string, folder: string) => unknown }> = [
  { tool: readFileTool, input: (path) => ({ path }) },
  { tool: writeTool, input: (path) => ({ path, contents: 'pwned' }) },
  { tool: searchReplaceTool, input: (path) => ({ path, old_string: 'top secret', new_string: 'pwned' }) },
  { tool: editFileTool, input: (path) => ({ path, instructions: 'I overwrite.', code_edit: 'pwned\n' }) },
  { tool: deleteFileTool, input: (path) => ({ path }) },
  { tool: listDirTool, input: (_path, folder) => ({ path: folder }) },
  { tool: globFileSearchTool, input: (_path, folder) => ({ pattern: '*', path: folder }) },
];

async function expectOutsideUntouched(outside: string) {
  expect(await readdir(outside)).toEqual(['secret.txt']);
  expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
}

describe.each(tools)('$tool.name confinement', ({ tool, input }) => {
  it('refuses ../ traversal', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await expect(run(tool, input('../proj-evil/secret.txt', '../proj-evil'), context)).rejects.toBeInstanceOf(ToolError);
    await expect(run(tool, input('src/../../proj-evil/secret.txt', 'src/../../proj-evil'), context)).rejects.toThrow(/outside/);
    await expectOutsideUntouched(outside);
  });

  it('refuses an absolute path outside the workspace', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await expect(run(tool, input(join(outside, 'secret.txt'), outside), context)).rejects.toThrow(/outside the workspace/);
    await expectOutsideUntouched(outside);
  });

  it('refuses the proj-evil sibling that shares the name prefix', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    // `${root}-evil` starts with the root's string, but is not inside it.
    expect(outside.startsWith(root)).toBe(true);
    await expect(run(tool, input(`${root}-evil/secret.txt`, `${root}-evil`), context)).rejects.toThrow(/outside the workspace/);
    await expectOutsideUntouched(outside);
  });

  it('refuses a symlink inside the workspace that points outside', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await symlink(outside, join(root, 'escape'));
    if (tool === deleteFileTool) {
      // delete_file removes the link itself; a path through it is refused.
      await expect(run(tool, input('escape/secret.txt', 'escape'), context)).rejects.toThrow(/outside the workspace/);
    } else {
      await expect(run(tool, input('escape/secret.txt', 'escape'), context)).rejects.toThrow(/symbolic link/);
    }
    await expectOutsideUntouched(outside);
  });
});

describe('hard links and symlinked parents for every writing tool', () => {
  it('a hard link to an outside file is refused by write, search_replace and edit_file', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    await expect(run(writeTool, { path: 'hard.txt', contents: 'x' }, context)).rejects.toThrow(/hard link/);
    await expect(run(searchReplaceTool, { path: 'hard.txt', old_string: 'top', new_string: 'x' }, context)).rejects.toThrow(/hard link/);
    await expect(run(editFileTool, { path: 'hard.txt', instructions: 'x', code_edit: 'x\n' }, context)).rejects.toThrow(/hard link/);
    await expectOutsideUntouched(outside);
  });

  it('a new file through a symlinked parent is refused by every writing tool', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await symlink(outside, join(root, 'parent-link'));
    await expect(run(writeTool, { path: 'parent-link/new.txt', contents: 'x' }, context)).rejects.toThrow(/symbolic link/);
    await expect(run(searchReplaceTool, { path: 'parent-link/new.txt', old_string: '', new_string: 'x' }, context)).rejects.toThrow(/symbolic link/);
    await expect(run(editFileTool, { path: 'parent-link/deep/new.txt', instructions: 'x', code_edit: 'x\n' }, context)).rejects.toThrow(/symbolic link/);
    await expectOutsideUntouched(outside);
  });

  it('a dangling symlink to outside is not a way to create a file there', async () => {
    const { root, outside } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await symlink(join(outside, 'planted.txt'), join(root, 'dangling.txt'));
    await expect(run(writeTool, { path: 'dangling.txt', contents: 'x' }, context)).rejects.toThrow(/symbolic link/);
    await expectOutsideUntouched(outside);
  });

  it('an aborted call does nothing', async () => {
    const { root } = await createWorkspace();
    const controller = new AbortController();
    controller.abort();
    const { context } = createTestToolContext(root, { signal: controller.signal });
    await writeFile(join(root, 'a.txt'), 'a');
    await expect(run(writeTool, { path: 'b.txt', contents: 'b' }, context)).rejects.toThrow(/abort/i);
    await expect(run(readFileTool, { path: 'a.txt' }, context)).rejects.toThrow(/abort/i);
    await expect(run(globFileSearchTool, { pattern: '*' }, context)).rejects.toThrow(/abort/i);
    expect(await readdir(root)).toEqual(['a.txt']);
  });
});
