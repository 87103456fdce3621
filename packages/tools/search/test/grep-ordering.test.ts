import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrepInput, grepTool, locateRipgrep, planGrep, ripgrepArguments } from '../src/index.js';
import { type GrepEntry, sortEntriesByPath } from '../src/grep-output.js';
import { unsortedOutputBound } from '../src/grep-ripgrep.js';
import { createWorkspace, referenceRipgrep, testContext, textOf } from './helpers.js';

// rg runs in parallel (no --sort=path) and grep sorts afterwards: the output must be rg's
// --sort=path output byte for byte, every time, on a tree wide enough for rg's threads to finish
// files out of order; and a capped output must be the same first results on every run.

/** 12 folders × 25 files with names that sort differently by path and by walk, and non-ASCII ones. */
function wideTree(): Record<string, string> {
  const tree: Record<string, string> = {};
  const folders = ['a', 'a-b', 'a.b', 'a_b', 'B', 'b', 'é', 'z/deep/er', 'z-', 'z/a', '0', 'a/b'];
  for (const folder of folders) {
    for (let file = 0; file < 25; file++) {
      const lines = Array.from({ length: 30 }, (_, line) => (line % 7 === 3 ? `needle ${folder} ${file} ${line}` : `filler ${line}`));
      tree[`${folder}/f${file}.txt`] = `${lines.join('\n')}\n`;
    }
  }
  tree['a.txt'] = 'needle top\n';
  tree['a-b.txt'] = 'needle top dash\n';
  return tree;
}

let rgPath: string | undefined;
beforeAll(async () => {
  rgPath = await locateRipgrep();
});

describe('grep output order without --sort=path', () => {
  let workspace: Awaited<ReturnType<typeof createWorkspace>>;
  beforeAll(async () => {
    workspace = await createWorkspace(wideTree());
  });
  afterAll(() => workspace.cleanup());

  const cases: GrepInput[] = [
    { pattern: 'needle', head_limit: 100_000 },
    { pattern: 'needle', '-C': 1, head_limit: 100_000 },
    { pattern: 'needle', '-B': 2, path: 'z' },
    { pattern: 'needle', output_mode: 'files_with_matches' },
    { pattern: 'needle', output_mode: 'count' },
  ];
  for (const [index, input] of cases.entries()) {
    it(`case ${index}: equals rg --sort=path, five runs in a row`, async () => {
      const settings = { engine: 'ripgrep', maxLines: 100_000, maxBytes: 10_000_000 };
      const reference = referenceRipgrep(rgPath as string, workspace.root, ripgrepArguments(planGrep(input), input.path ?? '', 500, { sortByPath: true }).filter((arg) => arg !== '--null'));
      expect(reference.split('\n').length).toBeGreaterThan(20);
      for (let run = 0; run < 5; run++) {
        expect(textOf(await grepTool.execute(input, testContext(workspace.root, { settings })))).toBe(reference);
      }
    });
  }
});

describe('a capped grep output', () => {
  let workspace: Awaited<ReturnType<typeof createWorkspace>>;
  beforeAll(async () => {
    // More matching output than the unsorted bound, so the tool must fall back to rg's path order.
    const tree: Record<string, string> = {};
    const line = `needle ${'x'.repeat(90)}\n`;
    const files = 40;
    const linesPerFile = Math.ceil((unsortedOutputBound * 1.5) / files / line.length);
    for (let file = 0; file < files; file++) tree[`d${file % 5}/file-${file}.txt`] = line.repeat(linesPerFile);
    workspace = await createWorkspace(tree);
  });
  afterAll(() => workspace.cleanup());

  it('is the first results in path order, the same on every run', async () => {
    const input: GrepInput = { pattern: 'needle' };
    const reference = referenceRipgrep(rgPath as string, workspace.root, ripgrepArguments(planGrep(input), '', 500, { sortByPath: true }).filter((arg) => arg !== '--null'));
    const outputs = new Set<string>();
    for (let run = 0; run < 3; run++) {
      const text = textOf(await grepTool.execute(input, testContext(workspace.root, { settings: { engine: 'ripgrep' } })));
      const printed = text.split('\n').filter((row) => !row.startsWith('[Output truncated'));
      expect(printed.length).toBeGreaterThan(100);
      expect(printed).toEqual(reference.split('\n').slice(0, printed.length));
      expect(text).toContain(`[Output truncated after ${printed.length} results.`);
      outputs.add(text);
    }
    expect(outputs.size).toBe(1);
  });
});

describe('sortEntriesByPath', () => {
  const line = (path: string, lineNumber: number): GrepEntry => ({ type: 'line', path, lineNumber, isMatch: true, text: 'x' });
  const separator: GrepEntry = { type: 'separator' };

  it('orders files as a sorted walk and keeps each file’s lines in order', () => {
    const entries = [line('a-b/x', 1), line('a.txt', 1), line('a/b', 3), line('a/b', 9), line('B', 1)];
    expect(sortEntriesByPath(entries, false).map((entry) => (entry.type === 'line' ? `${entry.path}:${entry.lineNumber}` : '--'))).toEqual([
      'B:1', 'a/b:3', 'a/b:9', 'a-b/x:1', 'a.txt:1',
    ]);
  });

  it('puts one separator between files and keeps the ones inside a file', () => {
    const entries = [line('b', 1), separator, line('b', 5), separator, line('a', 2), separator];
    expect(sortEntriesByPath(entries, true).map((entry) => (entry.type === 'line' ? `${entry.path}:${entry.lineNumber}` : '--'))).toEqual([
      'a:2', '--', 'b:1', '--', 'b:5',
    ]);
  });
});
