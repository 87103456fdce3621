import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '@cairn/core';
import { afterEach, describe, expect, it } from 'vitest';
import { grepTool } from '../src/index.js';
import { createWorkspace, testContext, textOf } from './helpers.js';

const engines = ['ripgrep', 'builtin'] as const;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function workspaceWith(files: Record<string, string>) {
  const workspace = await createWorkspace(files);
  cleanups.push(workspace.cleanup);
  return workspace;
}

describe.each(engines)('grep safety (%s engine)', (engine) => {
  const settings = { engine };

  it('refuses a FIFO as the search target at once instead of blocking', async () => {
    const { root } = await workspaceWith({ 'ok.txt': 'needle\n' });
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(grepTool.execute({ pattern: 'needle', path: 'pipe' }, testContext(root, { settings }))).rejects.toThrow(/not a regular file or folder/);
  });

  it('honours .cairnignore and .cursorignore in nested folders', async () => {
    const { root } = await workspaceWith({
      '.cairnignore': 'secrets/\n',
      'secrets/key.txt': 'needle key\n',
      'app/.cursorignore': 'private.txt\n',
      'app/private.txt': 'needle private\n',
      'app/public.txt': 'needle public\n',
    });
    expect(textOf(await grepTool.execute({ pattern: 'needle' }, testContext(root, { settings })))).toBe('app/public.txt:1:needle public');
  });

  it('drops results for denied paths, in every output mode', async () => {
    const { root } = await workspaceWith({ '.env': 'API_KEY=needle\n', 'config/.env.local': 'needle local\n', 'ok.txt': 'needle ok\n' });
    const deny = (absolutePath: string, toolId: string) => toolId === 'read' && /\/\.env(\.[^/]*)?$/.test(absolutePath);
    for (const output_mode of ['content', 'files_with_matches', 'count'] as const) {
      const text = textOf(await grepTool.execute({ pattern: 'needle', output_mode, '-C': 2 }, testContext(root, { settings, deny })));
      expect(text).not.toContain('.env');
      expect(text).toContain('ok.txt');
    }
    await expect(grepTool.execute({ pattern: 'needle', path: '.env' }, testContext(root, { settings, deny }))).rejects.toThrow(/denied/);
  });

  it('refuses paths outside the workspace, including a sibling sharing its name prefix', async () => {
    const { root, outside } = await workspaceWith({ 'in.txt': 'needle\n' });
    for (const path of ['..', '../proj-evil', outside, '/etc', 'sub/../../proj-evil/secret.txt']) {
      await expect(grepTool.execute({ pattern: 'needle', path }, testContext(root, { settings })), path).rejects.toSatisfy(ToolError.isInstance);
    }
    await symlink(outside, join(root, 'escape'));
    await expect(grepTool.execute({ pattern: 'needle', path: 'escape' }, testContext(root, { settings }))).rejects.toThrow(/outside the workspace/);
    // A link inside the tree is not followed by a recursive search either.
    expect(textOf(await grepTool.execute({ pattern: 'needle' }, testContext(root, { settings })))).toBe('in.txt:1:needle');
  });

  it('ends on a symbolic link loop and does not repeat results', async () => {
    const { root } = await workspaceWith({ 'deep/file.txt': 'needle once\n' });
    await symlink(root, join(root, 'deep/loop'));
    await symlink('.', join(root, 'self'));
    expect(textOf(await grepTool.execute({ pattern: 'needle' }, testContext(root, { settings })))).toBe('deep/file.txt:1:needle once');
  });

  it('caps output on a huge tree with a truncation notice, and head_limit takes the first results', async () => {
    const { root } = await workspaceWith({});
    for (let folder = 0; folder < 20; folder++) {
      await mkdir(join(root, `f${folder}`));
      for (let file = 0; file < 25; file++) await writeFile(join(root, `f${folder}`, `x${file}.txt`), 'needle\n'.repeat(20));
    }
    const capped = await grepTool.execute({ pattern: 'needle' }, testContext(root, { settings: { ...settings, maxLines: 50 } }));
    const lines = textOf(capped).split('\n');
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toMatch(/^\[Output truncated after 50 results/);
    expect(capped).toMatchObject({ truncated: true });
    const limited = textOf(await grepTool.execute({ pattern: 'needle', output_mode: 'files_with_matches', head_limit: 3 }, testContext(root, { settings })));
    expect(limited.split('\n')).toEqual(['f0/x0.txt', 'f0/x1.txt', 'f0/x10.txt', '[Showing the first 3 results (head_limit); more exist.]']);
    const bytes = textOf(await grepTool.execute({ pattern: 'needle' }, testContext(root, { settings: { ...settings, maxBytes: 1000 } })));
    expect(bytes.length).toBeLessThan(1300);
  });

  it('reports no matches and rejects an invalid pattern with a fix', async () => {
    const { root } = await workspaceWith({ 'a.txt': 'hello\n' });
    expect(textOf(await grepTool.execute({ pattern: 'absent' }, testContext(root, { settings })))).toBe('No matches found.');
    await expect(grepTool.execute({ pattern: 'a(' }, testContext(root, { settings }))).rejects.toSatisfy(ToolError.isInstance);
    await expect(grepTool.execute({ pattern: 'x', type: 'nope' }, testContext(root, { settings }))).rejects.toThrow(/Unknown file type/);
  });

  it('stops when the signal aborts', async () => {
    const { root } = await workspaceWith({ 'a.txt': 'needle\n' });
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(grepTool.execute({ pattern: 'needle' }, testContext(root, { settings, signal: controller.signal }))).rejects.toThrow('cancelled');
  });
});

describe('pathological patterns', () => {
  it('the built-in engine interrupts catastrophic backtracking at the time limit', async () => {
    const { root } = await workspaceWith({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'fine.txt': 'aaa\n' });
    const result = await grepTool.execute({ pattern: '(a+)+$' }, testContext(root, { settings: { engine: 'builtin', timeoutMs: 300 } }));
    expect(textOf(result)).toMatch(/\[Search stopped after 300 ms; results are partial/);
    expect(result).toMatchObject({ truncated: true });
  });

  it('the built-in engine stops at its file cap with a notice', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`many/file${String(index).padStart(2, '0')}.txt`, 'needle\n']));
    const { root } = await workspaceWith(files);
    const text = textOf(await grepTool.execute({ pattern: 'needle', output_mode: 'files_with_matches' }, testContext(root, { settings: { engine: 'builtin', maxFiles: 10 } })));
    expect(text.split('\n').slice(0, -1)).toHaveLength(10);
    expect(text.split('\n').at(-1)).toMatch(/^\[Output truncated after 10 results/);
  });

  it('ripgrep runs the same pattern in linear time', async () => {
    const { root } = await workspaceWith({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'fine.txt': 'aaa\n' });
    expect(textOf(await grepTool.execute({ pattern: '(a+)+$' }, testContext(root, { settings: { engine: 'ripgrep' } })))).toBe('fine.txt:1:aaa');
  });
});
