import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { editFileTool } from './edit-file.js';
import { readFileTool } from './read-file.js';
import { createTestToolContext, createWorkspace, run, textOf } from './test-support/tool-context.js';

async function setup(files: Record<string, string | Buffer> = {}) {
  const workspace = await createWorkspace();
  for (const [name, contents] of Object.entries(files)) await writeFile(join(workspace.root, name), contents);
  return { ...workspace, ...createTestToolContext(workspace.root) };
}

const edit = (input: unknown, context: Parameters<typeof run>[2]) => run(editFileTool, input, context);

describe('edit_file', () => {
  it('merges a sketch into the file and records the change', async () => {
    const { root, context, changes } = await setup({ 'calc.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n' });
    const result = await edit(
      {
        path: 'calc.ts',
        instructions: 'I add a sub function after add.',
        code_edit: '// ... existing code ...\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n',
      },
      context,
    );
    expect(textOf(result)).toMatch(/Edited calc.ts: 1 region/);
    // The real change, for UIs (the model reads only the text).
    expect((result as { structuredContent?: { path: string; diff: string } }).structuredContent).toMatchObject({ path: 'calc.ts', diff: expect.stringContaining('+export function sub(a: number, b: number) {') });
    expect((result as { structuredContent: { diff: string } }).structuredContent.diff).not.toContain('-export function add');
    expect(await readFile(join(root, 'calc.ts'), 'utf8')).toBe(
      'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n',
    );
    expect(changes).toHaveLength(1);
  });

  it('creates a new file from a sketch without markers', async () => {
    const { root, context } = await setup();
    expect(textOf(await edit({ path: 'pkg/new.py', instructions: 'I create it.', code_edit: 'print("hi")\n' }, context))).toMatch(/Created pkg\/new.py/);
    expect(await readFile(join(root, 'pkg/new.py'), 'utf8')).toBe('print("hi")\n');
  });

  it('refuses markers for a file that does not exist', async () => {
    const { root, context } = await setup();
    await expect(edit({ path: 'x.ts', instructions: 'I edit.', code_edit: '// ... existing code ...\nfoo();\n' }, context)).rejects.toThrow(
      /does not exist.*complete contents/,
    );
    expect(await readdir(root)).toEqual([]);
  });

  it('keeps CRLF line endings and the BOM', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2\r\n')]);
    const { root, context } = await setup({ 'mod.py': original });
    await edit({ path: 'mod.py', instructions: 'I change b.', code_edit: '# ... existing code ...\ndef b():\n    return 3\n' }, context);
    const bytes = await readFile(join(root, 'mod.py'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe('def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 3\r\n');
  });

  it('an ambiguous sketch fails with a ToolError asking for search_replace and leaves the file untouched', async () => {
    const original = 'if (a) {\n  run();\n}\nif (b) {\n  run();\n}\n';
    const { root, context, changes } = await setup({ 'twice.js': original });
    const attempt = edit({ path: 'twice.js', instructions: 'I log.', code_edit: '// ... existing code ...\n  run();\n  log();\n// ... existing code ...' }, context);
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(edit({ path: 'twice.js', instructions: 'I log.', code_edit: '// ... existing code ...\n  run();\n  log();\n// ... existing code ...' }, context)).rejects.toThrow(
      /search_replace/,
    );
    expect(await readFile(join(root, 'twice.js'), 'utf8')).toBe(original);
    expect(changes).toHaveLength(0);
  });

  it('refuses when the file changed on disk since it was read', async () => {
    const { root, context } = await setup({ 'a.go': 'package a\n' });
    await run(readFileTool, { path: 'a.go' }, context);
    await writeFile(join(root, 'a.go'), 'package b\n');
    await expect(edit({ path: 'a.go', instructions: 'I edit.', code_edit: 'package c\n' }, context)).rejects.toThrow(/changed on disk/);
    expect(await readFile(join(root, 'a.go'), 'utf8')).toBe('package b\n');
  });

  it('a sketch that changes nothing is reported as such', async () => {
    const { context } = await setup({ 'same.ts': 'a;\nb;\n' });
    await expect(edit({ path: 'same.ts', instructions: 'noop', code_edit: '// ... existing code ...\nb;\n' }, context)).rejects.toThrow(/would not change/);
  });
});

describe('the diff edit_file reports', () => {
  it('keeps whole hunks of a long diff, so what is kept is still a patch', async () => {
    const { unifiedDiff } = await import('./shared/edit-diff.js');
    const { parsePatch } = await import('diff');
    const before = Array.from({ length: 2000 }, (_, index) => `line ${index}`).join('\n');
    const after = before.replace(/line (\d*0)$/gm, 'LINE $1');
    const { diff, truncated } = unifiedDiff('big.txt', before, after);
    expect(truncated).toBe(true);
    expect(diff.split('\n').length).toBeLessThanOrEqual(410);
    expect(parsePatch(diff)[0]?.hunks.length).toBeGreaterThan(0);
    expect(unifiedDiff('small.txt', 'a\r\nb\r\n', 'a\r\nc\r\n')).toEqual({ diff: expect.stringContaining('-b\n+c\n') });
  });
});
