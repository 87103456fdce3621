import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createWorkspace, testContext, textOf } from './helpers.js';

// Modules swapped for pass-throughs that note when they are imported: grep's search code and the
// builtins and packages only a search needs.
const watched = {
  '../src/grep-execute.js': 'grep body',
  'node:child_process': 'child_process',
  'node:vm': 'vm',
  picomatch: 'picomatch',
  '@cairn/indexer': 'indexer',
} as const;
const loaded: string[] = [];

// A fresh module registry and fresh pass-throughs per test: each test sees only its own loads.
beforeEach(() => {
  vi.resetModules();
  loaded.length = 0;
  for (const [specifier, label] of Object.entries(watched)) {
    vi.doMock(specifier, async (importOriginal) => {
      loaded.push(label);
      return importOriginal();
    });
  }
});

describe('@cairn/tools-search loads its search code on first use', () => {
  it('importing the pack loads neither engine nor the indexer', async () => {
    const search = await import('../src/index.js');
    expect(search.searchTools.map((tool) => tool.name)).toEqual(['grep', 'codebase_search']);
    expect(search.ripgrepArguments(search.planGrep({ pattern: 'x' }), '', 100)).toContain('--no-config');
    expect(loaded).toEqual([]);
  });

  it('the first grep loads the search code and finds as before', async () => {
    const { grepTool } = await import('../src/index.js');
    const { root, cleanup } = await createWorkspace({ 'a.txt': 'needle here\n' });
    onTestFinished(cleanup);
    const result = await grepTool.execute({ pattern: 'needle', output_mode: 'files_with_matches' }, testContext(root, { settings: { engine: 'builtin' } }));
    expect(textOf(result)).toContain('a.txt');
    expect(loaded).toEqual(expect.arrayContaining(['grep body', 'picomatch']));
    expect(loaded).not.toContain('indexer');
  });
});
