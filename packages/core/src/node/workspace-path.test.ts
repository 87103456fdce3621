import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../spec/errors/index.js';
import { IgnoreRules } from './ignore-rules.js';
import { protectedPathReason } from './protected-paths.js';
import { canonicalWorkspaceRoot, isInsideRoot, resolveWorkspacePath } from './workspace-path.js';

async function workspace() {
  const base = await canonicalWorkspaceRoot(await mkdtemp(join(tmpdir(), 'cairn-path-')));
  const root = join(base, 'proj');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(base, 'proj-evil'));
  await writeFile(join(base, 'proj-evil', 'secret.txt'), 'secret');
  return { base, root };
}

describe('resolveWorkspacePath', () => {
  it('compares whole path segments, not string prefixes', () => {
    expect(isInsideRoot('/w/proj', '/w/proj/src')).toBe(true);
    expect(isInsideRoot('/w/proj', '/w/proj-evil')).toBe(false);
    expect(isInsideRoot('/w/proj', '/w')).toBe(false);
  });

  it('refuses traversal, absolute paths elsewhere and sibling folders sharing the prefix', async () => {
    const { base, root } = await workspace();
    await expect(resolveWorkspacePath(root, '../proj-evil/secret.txt')).rejects.toBeInstanceOf(ToolError);
    await expect(resolveWorkspacePath(root, join(base, 'proj-evil', 'secret.txt'))).rejects.toThrow(/outside the workspace/);
    await expect(resolveWorkspacePath(root, 'src/../../proj-evil')).rejects.toThrow(/outside/);
  });

  it('refuses a symlink pointing outside and a new file below a symlinked parent', async () => {
    const { base, root } = await workspace();
    await symlink(join(base, 'proj-evil'), join(root, 'link'));
    await expect(resolveWorkspacePath(root, 'link/secret.txt')).rejects.toThrow(/symbolic link/);
    await expect(resolveWorkspacePath(root, 'link/new-file.txt')).rejects.toThrow(/symbolic link/);
  });

  it('follows a dangling symlink instead of treating it as a missing name', async () => {
    const { base, root } = await workspace();
    await symlink(join(base, 'proj-evil', 'not-yet'), join(root, 'dangling'));
    await symlink(join(base, 'proj-evil', 'new-dir'), join(root, 'dangling-dir'));
    await expect(resolveWorkspacePath(root, 'dangling')).rejects.toThrow(/symbolic link/);
    await expect(resolveWorkspacePath(root, 'dangling-dir/file.txt')).rejects.toThrow(/symbolic link/);
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    await expect(resolveWorkspacePath(root, 'loop-a/x')).rejects.toBeInstanceOf(ToolError);
    await symlink('src/later.ts', join(root, 'inside-dangling'));
    expect((await resolveWorkspacePath(root, 'inside-dangling')).absolute).toBe(join(root, 'src', 'later.ts'));
  });

  it('resolves paths inside, including ones that do not exist yet', async () => {
    const { root } = await workspace();
    const resolved = await resolveWorkspacePath(root, 'src/new/file.ts');
    expect(resolved.relative).toBe('src/new/file.ts');
    expect(resolved.absolute).toBe(join(root, 'src', 'new', 'file.ts'));
  });
});

describe('protectedPathReason', () => {
  it('protects git internals, agent config and shell start-up files in any case', () => {
    expect(protectedPathReason('/w', '/w/.git/hooks/pre-commit')).toMatch(/git/);
    expect(protectedPathReason('/w', '/w/.GIT/config')).toMatch(/git/);
    expect(protectedPathReason('/w', '/w/.cairn/permissions.json')).toMatch(/configuration/);
    expect(protectedPathReason('/w', '/w/.cursor/mcp.json')).toMatch(/cursor/);
    expect(protectedPathReason('/w', '/w/.bashrc')).toMatch(/start-up/);
    expect(protectedPathReason('/w', '/w/.cursor/environment.json')).toMatch(/cursor/);
    expect(protectedPathReason('/w', '/w/src/index.ts')).toBeUndefined();
    expect(protectedPathReason('/w', '/w/.cursor/rules/style.mdc')).toBeUndefined();
    // A folder whose name starts with ".." is inside the root, and its contents are protected too.
    expect(protectedPathReason('/w', '/w/..vendor/.git/hooks/pre-commit')).toMatch(/git/);
    expect(protectedPathReason('/w', '/w/..vendor/.bashrc')).toMatch(/start-up/);
    expect(protectedPathReason('/w', '/other/.bashrc')).toBeUndefined();
  });
});

describe('IgnoreRules', () => {
  it('applies nested ignore files and default folders', async () => {
    const { root } = await workspace();
    await writeFile(join(root, '.gitignore'), 'dist/\n*.log\n');
    await writeFile(join(root, 'src', '.cairnignore'), 'generated.ts\n');
    const rules = await IgnoreRules.load(root);
    await rules.loadDirectory('src');
    expect(rules.ignores('dist', true)).toBe(true);
    expect(rules.ignores('dist/a.js', false)).toBe(true);
    expect(rules.ignores('debug.log', false)).toBe(true);
    expect(rules.ignores('src/generated.ts', false)).toBe(true);
    expect(rules.ignores('generated.ts', false)).toBe(false);
    expect(rules.ignores('node_modules/x/index.js', false)).toBe(true);
    expect(rules.ignores('src/index.ts', false)).toBe(false);
  });
});
