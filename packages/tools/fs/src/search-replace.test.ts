import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './read-file.js';
import { searchReplaceTool } from './search-replace.js';
import { createTestToolContext, createWorkspace, run } from './test-support/tool-context.js';

async function setup(files: Record<string, string | Buffer> = {}) {
  const workspace = await createWorkspace();
  for (const [name, contents] of Object.entries(files)) await writeFile(join(workspace.root, name), contents);
  return { ...workspace, ...createTestToolContext(workspace.root) };
}

const edit = (input: unknown, context: Parameters<typeof run>[2]) => run(searchReplaceTool, input, context);

describe('search_replace', () => {
  it('replaces one exact match and answers with a numbered diff', async () => {
    const { root, context, changes } = await setup({ 'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const result = await edit({ path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;\nconst bb = 21;' }, context);
    expect(result).toBe('Edited a.ts: 1 replacement.\n@@ line 2 @@\n-     2|const b = 2;\n+     2|const b = 20;\n+     3|const bb = 21;');
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect(changes).toHaveLength(1);
    expect(Buffer.from(changes[0]?.after ?? []).toString()).toContain('bb = 21');
  });

  it('not found, not unique and old == new are three distinct errors leaving the file untouched', async () => {
    const original = 'x = 1\ny = 1\nx = 1\n';
    const { root, context, changes } = await setup({ 'a.py': original });
    await expect(edit({ path: 'a.py', old_string: 'z = 1', new_string: 'z = 2' }, context)).rejects.toThrow(/was not found in a\.py/);
    await expect(edit({ path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' }, context)).rejects.toThrow(
      /occurs 2 times in a\.py \(lines 1, 3\).*more surrounding lines.*replace_all/,
    );
    await expect(edit({ path: 'a.py', old_string: 'y = 1', new_string: 'y = 1' }, context)).rejects.toThrow(/identical/);
    expect(await readFile(join(root, 'a.py'), 'utf8')).toBe(original);
    expect(changes).toHaveLength(0);
    expect(await readdir(root)).toEqual(['a.py']);
  });

  it('a not-found error points at a match that differs only in indentation', async () => {
    const { context } = await setup({ 'a.py': 'def f():\n    return 1\n' });
    await expect(edit({ path: 'a.py', old_string: 'def f():\n  return 1', new_string: 'x' }, context)).rejects.toThrow(
      /not found.*except for indentation or spacing starts at line 1/,
    );
  });

  it('parallel edits of one file both land (calls are serialised per file)', async () => {
    const { root, context } = await setup({ 'a.txt': 'one\ntwo\nthree\n' });
    await Promise.all([
      edit({ path: 'a.txt', old_string: 'one', new_string: 'ONE' }, context),
      edit({ path: 'a.txt', old_string: 'three', new_string: 'THREE' }, context),
      edit({ path: 'a.txt', old_string: 'two', new_string: 'TWO' }, context),
    ]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('ONE\nTWO\nTHREE\n');
  });

  it('replace_all replaces every occurrence', async () => {
    const { root, context } = await setup({ 'a.py': 'x = 1\ny = 1\nx = 1\n' });
    expect(await edit({ path: 'a.py', old_string: 'x = 1', new_string: 'x = 2', replace_all: true }, context)).toMatch(/2 replacements/);
    expect(await readFile(join(root, 'a.py'), 'utf8')).toBe('x = 2\ny = 1\nx = 2\n');
  });

  it('$&, $1 and $$ in the replacement are literal', async () => {
    const { root, context } = await setup({ 'price.js': 'const price = PRICE;\nconst other = PRICE;\n' });
    await edit({ path: 'price.js', old_string: 'PRICE', new_string: '"$$5 $& $1 $`"', replace_all: true }, context);
    expect(await readFile(join(root, 'price.js'), 'utf8')).toBe('const price = "$$5 $& $1 $`";\nconst other = "$$5 $& $1 $`";\n');
  });

  it('a CRLF file edited with LF text keeps CRLF', async () => {
    const { root, context } = await setup({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    await edit({ path: 'win.txt', old_string: 'one\ntwo', new_string: 'one\nTWO\nextra' }, context);
    expect(await readFile(join(root, 'win.txt'), 'utf8')).toBe('one\r\nTWO\r\nextra\r\nthree\r\n');
  });

  it('an LF file edited with CRLF text keeps LF', async () => {
    const { root, context } = await setup({ 'unix.txt': 'one\ntwo\nthree\n' });
    await edit({ path: 'unix.txt', old_string: 'two\r\nthree', new_string: '2\r\n3' }, context);
    expect(await readFile(join(root, 'unix.txt'), 'utf8')).toBe('one\n2\n3\n');
  });

  it('the UTF-8 BOM is kept', async () => {
    const { root, context } = await setup({ 'bom.cs': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('class A {}\n')]) });
    await edit({ path: 'bom.cs', old_string: 'class A', new_string: 'class B' }, context);
    const bytes = await readFile(join(root, 'bom.cs'));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe('class B {}\n');
  });

  it('a UTF-16LE file with BOM is edited in its own encoding', async () => {
    const original = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name=old\r\n', 'utf16le')]);
    const { root, context } = await setup({ 'app.ini': original });
    await edit({ path: 'app.ini', old_string: 'old', new_string: 'nëw' }, context);
    expect(await readFile(join(root, 'app.ini'))).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name=nëw\r\n', 'utf16le')]));
  });

  it('refuses when the file changed on disk since it was read, asking to read again', async () => {
    const { root, context } = await setup({ 'a.ts': 'let value = 1;\n' });
    await run(readFileTool, { path: 'a.ts' }, context);
    await writeFile(join(root, 'a.ts'), 'let value = 1; // user edit\n');
    await expect(edit({ path: 'a.ts', old_string: 'value = 1', new_string: 'value = 2' }, context)).rejects.toThrow(
      /changed on disk since you last read it.*Read it again/,
    );
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let value = 1; // user edit\n');
  });

  it('consecutive edits after one read work (the snapshot follows its own writes)', async () => {
    const { root, context } = await setup({ 'a.ts': 'a\nb\n' });
    await run(readFileTool, { path: 'a.ts' }, context);
    await edit({ path: 'a.ts', old_string: 'a', new_string: 'A' }, context);
    await edit({ path: 'a.ts', old_string: 'b', new_string: 'B' }, context);
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('A\nB\n');
  });

  it('an empty old_string creates a missing file, and is refused on a file with content', async () => {
    const { root, context, changes } = await setup({ 'full.txt': 'content' });
    expect(await edit({ path: 'new/file.txt', old_string: '', new_string: 'hello\n' }, context)).toMatch(/Created new\/file.txt/);
    expect(await readFile(join(root, 'new/file.txt'), 'utf8')).toBe('hello\n');
    expect(changes[0]!.before).toBeNull();
    await expect(edit({ path: 'full.txt', old_string: '', new_string: 'x' }, context)).rejects.toThrow(/already has content/);
    await expect(edit({ path: 'missing.txt', old_string: 'a', new_string: 'b' }, context)).rejects.toThrow(/does not exist/);
  });

  it('binary and invalid UTF-8 files are refused', async () => {
    const { context } = await setup({ 'a.bin': Buffer.from([1, 0, 2]), 'l1.txt': Buffer.from([0x61, 0xe9, 0x62]) });
    await expect(edit({ path: 'a.bin', old_string: 'a', new_string: 'b' }, context)).rejects.toThrow(/binary/);
    await expect(edit({ path: 'l1.txt', old_string: 'a', new_string: 'b' }, context)).rejects.toThrow(/not valid UTF-8/);
  });

  it('confinement and protected paths apply', async () => {
    const { root, context } = await setup();
    await expect(edit({ path: '../proj-evil/secret.txt', old_string: 'top', new_string: 'x' }, context)).rejects.toThrow(/outside/);
    await expect(edit({ path: '.git/config', old_string: '', new_string: 'x' }, context)).rejects.toThrow(/refused/);
    expect(await readdir(root)).toEqual([]);
  });
});
