import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deleteFileTool } from './delete-file.js';
import { createTestToolContext, createWorkspace, run } from './test-support/tool-context.js';

async function setup() {
  const workspace = await createWorkspace();
  return { ...workspace, ...createTestToolContext(workspace.root) };
}

const remove = (input: unknown, context: Parameters<typeof run>[2]) => run(deleteFileTool, input, context);

describe('delete_file', () => {
  it('deletes a file and records its before-image', async () => {
    const { root, context, changes } = await setup();
    await writeFile(join(root, 'old.txt'), 'bye');
    expect(await remove({ path: 'old.txt' }, context)).toBe('Deleted old.txt.');
    expect(await readdir(root)).toEqual([]);
    expect(changes).toEqual([{ path: join(root, 'old.txt'), before: Buffer.from('bye'), after: null }]);
  });

  it('refuses the workspace root, "." and ".."', async () => {
    const { root, base, context } = await setup();
    await expect(remove({ path: '.' }, context)).rejects.toThrow(/root cannot be deleted/);
    await expect(remove({ path: root }, context)).rejects.toThrow(/root cannot be deleted/);
    await expect(remove({ path: 'src/..' }, context)).rejects.toThrow(/root cannot be deleted/);
    await expect(remove({ path: '..' }, context)).rejects.toThrow(/outside the workspace/);
    expect(await readdir(base)).toEqual(['proj', 'proj-evil']);
  });

  it('a symlink to a folder outside is unlinked, never followed', async () => {
    const { root, outside, context } = await setup();
    await symlink(outside, join(root, 'evil-link'));
    expect(await remove({ path: 'evil-link' }, context)).toMatch(/symbolic link evil-link.*target was left alone/);
    await expect(lstat(join(root, 'evil-link'))).rejects.toThrow();
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('a symlink to a file outside is unlinked, the file stays', async () => {
    const { root, outside, context } = await setup();
    await symlink(join(outside, 'secret.txt'), join(root, 'secret-link'));
    await remove({ path: 'secret-link' }, context);
    expect(await readdir(root)).toEqual([]);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('a path through a symlinked folder outside is refused', async () => {
    const { root, outside, context } = await setup();
    await symlink(outside, join(root, 'evil-link'));
    await expect(remove({ path: 'evil-link/secret.txt' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(remove({ path: '../proj-evil/secret.txt' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(remove({ path: join(outside, 'secret.txt') }, context)).rejects.toThrow(/outside the workspace/);
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses folders, saying so', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, 'src'));
    await expect(remove({ path: 'src' }, context)).rejects.toThrow(/is a directory/);
  });

  it('refuses protected paths in any case and missing files', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(root, '.bashrc'), '');
    await expect(remove({ path: '.git/HEAD' }, context)).rejects.toThrow(/refused/);
    await expect(remove({ path: '.GIT/HEAD' }, context)).rejects.toThrow(/refused/);
    await expect(remove({ path: '.bashrc' }, context)).rejects.toThrow(/start-up/);
    await expect(remove({ path: 'ghost.txt' }, context)).rejects.toThrow(/does not exist/);
    expect(await readdir(join(root, '.git'))).toEqual(['HEAD']);
  });

  it('honours deny rules', async () => {
    const { root } = await setup();
    await writeFile(join(root, '.env'), 'x');
    const { context } = createTestToolContext(root, { deny: (_path, tool) => tool === 'delete' });
    await expect(remove({ path: '.env' }, context)).rejects.toThrow(/denied/);
  });
});
