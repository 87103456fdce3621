import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestToolContext, createWorkspace } from './test-support/tool-context.js';

// Each tool's execute module is swapped for a pass-through that notes when it is imported, so the
// test sees what importing the pack loads and what a call adds.
const executeModules = ['read-file', 'write-file', 'search-replace', 'edit-file', 'delete-file', 'list-dir', 'glob-file-search'] as const;
const loaded: string[] = [];

// A fresh module registry and fresh pass-throughs per test: each test sees only its own loads.
beforeEach(() => {
  vi.resetModules();
  loaded.length = 0;
  for (const name of executeModules) {
    vi.doMock(`./${name}-execute.js`, async (importOriginal) => {
      loaded.push(name);
      return importOriginal();
    });
  }
});

describe('@cairn/tools-fs loads its execute bodies on first use', () => {
  it('importing the pack loads no execute body, and the definitions are complete without them', async () => {
    const { fsTools } = await import('./index.js');
    expect(fsTools.map((tool) => tool.name)).toEqual(['read_file', 'write', 'search_replace', 'edit_file', 'delete_file', 'list_dir', 'glob_file_search']);
    expect(fsTools[0]!.paths?.({ path: 'a.txt' })).toEqual(['a.txt']);
    expect(loaded).toEqual([]);
  });

  it('the first call loads the bodies (all seven, one chunk) once; later calls reuse them', async () => {
    const { readFileTool } = await import('./index.js');
    const { root } = await createWorkspace();
    await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
    const { context } = createTestToolContext(root);
    expect(await readFileTool.execute({ path: 'a.txt' }, context)).toContain('one');
    await readFileTool.execute({ path: 'a.txt' }, context);
    expect([...loaded].sort()).toEqual([...executeModules].sort());
  });

  it('errors of the body reach the caller as they did before', async () => {
    const { readFileTool } = await import('./index.js');
    const { root } = await createWorkspace();
    const { context } = createTestToolContext(root);
    await expect(Promise.resolve(readFileTool.execute({ path: 'missing.txt' }, context))).rejects.toThrow(/missing\.txt does not exist/);
  });
});
