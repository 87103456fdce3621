import { chmod, link, lstat, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileTool } from './read-file.js';
import { atomicWriteFile } from './shared/atomic-write.js';
import { createTestToolContext, createWorkspace, run } from './test-support/tool-context.js';
import { writeTool } from './write-file.js';

async function setup(settings: Record<string, unknown> = {}) {
  const workspace = await createWorkspace();
  return { ...workspace, ...createTestToolContext(workspace.root, { settings }) };
}

const write = (input: unknown, context: Parameters<typeof run>[2]) => run(writeTool, input, context);

describe('write', () => {
  it('creates parents, writes the contents and records the change', async () => {
    const { root, context, changes } = await setup();
    expect(await write({ path: 'src/deep/new.ts', contents: 'export {};\n' }, context)).toMatch(/Created src\/deep\/new.ts \(1 lines/);
    expect(await readFile(join(root, 'src/deep/new.ts'), 'utf8')).toBe('export {};\n');
    expect(changes).toEqual([{ path: join(root, 'src/deep/new.ts'), before: null, after: Buffer.from('export {};\n') }]);
  });

  it('overwrites keeping the file mode and records before/after', async () => {
    const { root, context, changes } = await setup();
    await writeFile(join(root, 'run.sh'), 'echo old\n');
    await chmod(join(root, 'run.sh'), 0o750);
    await write({ path: 'run.sh', contents: 'echo new\n' }, context);
    expect(await readFile(join(root, 'run.sh'), 'utf8')).toBe('echo new\n');
    expect((await stat(join(root, 'run.sh'))).mode & 0o7777).toBe(0o750);
    expect(Buffer.from(changes[0]?.before ?? []).toString()).toBe('echo old\n');
    expect(await readdir(root)).toEqual(['run.sh']);
  });

  it('../ traversal, absolute outside path and the proj-evil sibling are refused', async () => {
    const { outside, context } = await setup();
    await expect(write({ path: '../proj-evil/secret.txt', contents: 'x' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(write({ path: join(outside, 'secret.txt'), contents: 'x' }, context)).rejects.toThrow(/outside the workspace/);
    await expect(write({ path: '../proj-evil/new.txt', contents: 'x' }, context)).rejects.toThrow(/outside/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('a symlink inside pointing outside and a new file through a symlinked parent are refused', async () => {
    const { root, outside, context } = await setup();
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    await symlink(outside, join(root, 'linked-dir'));
    await expect(write({ path: 'link.txt', contents: 'pwned' }, context)).rejects.toThrow(/symbolic link/);
    await expect(write({ path: 'linked-dir/new.txt', contents: 'pwned' }, context)).rejects.toThrow(/symbolic link/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('a hard link to an outside file is refused for overwrite', async () => {
    const { root, outside, context } = await setup();
    await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    await expect(write({ path: 'hard.txt', contents: 'pwned' }, context)).rejects.toThrow(/hard link/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('protected paths are refused in any letter case, existing or not, unless bypassed', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, '.git/hooks'), { recursive: true });
    await writeFile(join(root, '.git/config'), '[core]\n');
    for (const path of ['.git/config', '.git/hooks/pre-commit', '.GIT/HOOKS/post-checkout', '.cairn/permissions.json', '.Cairn/x.json', '.cursor/mcp.json', '.CURSOR/hooks.json', '.bashrc', 'sub/.ZSHRC']) {
      await expect(write({ path, contents: 'evil' }, context), path).rejects.toThrow(/refused/);
    }
    expect(await readFile(join(root, '.git/config'), 'utf8')).toBe('[core]\n');
    await expect(lstat(join(root, '.cairn'))).rejects.toThrow();
    const bypass = createTestToolContext(root, { settings: { allowProtectedWrites: true } });
    await write({ path: '.cairn/permissions.json', contents: '{}' }, bypass.context);
    expect(await readFile(join(root, '.cairn/permissions.json'), 'utf8')).toBe('{}');
    // The agent option's name, and per-tool settings, work too.
    const agentOption = createTestToolContext(root, { settings: { allowProtectedPathWrites: true } });
    await write({ path: '.bashrc', contents: 'ok' }, agentOption.context);
    const perTool = createTestToolContext(root, { settings: { write: { allowProtectedWrites: true } } });
    await write({ path: '.zshrc', contents: 'ok' }, perTool.context);
    const otherTool = createTestToolContext(root, { settings: { edit: { allowProtectedWrites: true } } });
    await expect(write({ path: '.profile', contents: 'no' }, otherTool.context)).rejects.toThrow(/refused/);
  });

  it('a symlink named like a protected file is protected, and so is a link to one', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git/config'), '[core]\n');
    await symlink('.git/config', join(root, 'innocent.txt'));
    await expect(write({ path: 'innocent.txt', contents: 'evil' }, context)).rejects.toThrow(/\.git/);
    expect(await readFile(join(root, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('a directory target is refused and leaves no temp file (atomic write failure)', async () => {
    const { root, context } = await setup();
    await mkdir(join(root, 'target'));
    await writeFile(join(root, 'target/keep.txt'), 'keep');
    await expect(write({ path: 'target', contents: 'x' }, context)).rejects.toThrow(/directory/);
    expect(await readdir(root)).toEqual(['target']);
    expect(await readdir(join(root, 'target'))).toEqual(['keep.txt']);
  });

  it('a read-only file is refused and stays whole', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'locked.txt'), 'original contents\n');
    await chmod(join(root, 'locked.txt'), 0o444);
    await expect(write({ path: 'locked.txt', contents: 'x' }, context)).rejects.toThrow(/read-only/);
    expect(await readFile(join(root, 'locked.txt'), 'utf8')).toBe('original contents\n');
    expect(await readdir(root)).toEqual(['locked.txt']);
  });

  it('a failure right before the commit leaves the old file whole and no temp file', async () => {
    const { root } = await setup();
    await writeFile(join(root, 'data.txt'), 'old and complete\n');
    const failing = atomicWriteFile(join(root, 'data.txt'), Buffer.from('new'), {
      root,
      displayPath: 'data.txt',
      beforeCommit: async () => {
        throw new Error('ENOSPC: no space left on device (simulated)');
      },
    });
    await expect(failing).rejects.toThrow(/no space left.*not changed/);
    expect(await readFile(join(root, 'data.txt'), 'utf8')).toBe('old and complete\n');
    expect(await readdir(root)).toEqual(['data.txt']);
  });

  it('a parent swapped for a symlink between check and write is refused', async () => {
    // The race is simulated with the commit hook: after the temp file is written (the path was
    // checked long before), the parent folder is moved away and replaced by a link to outside.
    const { root, outside } = await setup();
    await mkdir(join(root, 'dir'));
    const result = atomicWriteFile(join(root, 'dir', 'secret.txt'), Buffer.from('pwned'), {
      root,
      displayPath: 'dir/secret.txt',
      beforeCommit: async () => {
        await rename(join(root, 'dir'), join(root, 'dir-moved'));
        await symlink(outside, join(root, 'dir'));
      },
    });
    await expect(result).rejects.toThrow(/replaced by a symbolic link/);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('refuses to overwrite a file that changed on disk since it was read', async () => {
    const { root, context } = await setup();
    await writeFile(join(root, 'notes.md'), 'v1\n');
    await run(readFileTool, { path: 'notes.md' }, context);
    await writeFile(join(root, 'notes.md'), 'v2 by the user\n');
    await expect(write({ path: 'notes.md', contents: 'agent\n' }, context)).rejects.toThrow(/changed on disk since you last read it.*read_file/);
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('v2 by the user\n');
    await run(readFileTool, { path: 'notes.md' }, context);
    await write({ path: 'notes.md', contents: 'agent\n' }, context);
    // Its own write refreshed the snapshot, so a second write goes through.
    await write({ path: 'notes.md', contents: 'agent again\n' }, context);
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('agent again\n');
  });

  it('paths() returns the touched path for permission rules', () => {
    expect(writeTool.paths?.({ path: 'src/a.ts', contents: '' })).toEqual(['src/a.ts']);
  });
});
