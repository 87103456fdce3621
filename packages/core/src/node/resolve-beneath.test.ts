import { spawn, spawnSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceFileAtomically } from './atomic-replace.js';
import { ConfinementError, descriptorPathsWork } from './confined-directory.js';
import { openEntryForReading } from './confined-file.js';
import { hardLinkReadRefusal } from './hard-links.js';
import { walkBeneath } from './resolve-beneath.js';
import { pathsForRules } from './rule-paths.js';
import { sweepStaleTemporaryFiles, temporaryFileName } from './temporary-files.js';
import { canonicalWorkspaceRoot, resolveWorkspacePath } from './workspace-path.js';

const cleanups: string[] = [];
afterEach(async () => {
  for (const folder of cleanups.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** `<base>/proj` (the root) with `src/a.txt`, and `<base>/proj-evil` with the same names. */
async function layout() {
  const base = await canonicalWorkspaceRoot(await mkdtemp(join(tmpdir(), 'cairn-beneath-')));
  cleanups.push(base);
  const root = join(base, 'proj');
  const evil = join(base, 'proj-evil');
  for (const folder of [join(root, 'src'), evil]) await mkdir(folder, { recursive: true });
  await writeFile(join(root, 'src', 'a.txt'), 'inside\n');
  await writeFile(join(evil, 'a.txt'), 'evil\n');
  return { base, root, evil };
}

const reason = (error: unknown) => (error instanceof ConfinementError ? error.reason : String(error));

describe('walkBeneath', () => {
  it('uses descriptor paths on Linux, so the I/O below holds whatever happens to the names', async () => {
    expect(await descriptorPathsWork()).toBe(process.platform === 'linux');
  });

  it('follows links that stay inside, refuses ones that leave, and comes back in only the straight way', async () => {
    const { root, evil } = await layout();
    await symlink('src', join(root, 'link-src'));
    await symlink(join(root, 'src'), join(root, 'absolute-src'));
    await symlink('..', join(root, 'src', 'up'));
    await symlink('../proj/src', join(root, 'back-in'));
    await symlink(evil, join(root, 'out'));
    await symlink('../..', join(root, 'src', 'too-far'));
    const relativeOf = async (path: string) => {
      const entry = await walkBeneath(root, path);
      await entry.folder.close();
      return entry.relative;
    };
    expect(await relativeOf('link-src/a.txt')).toBe('src/a.txt');
    expect(await relativeOf('absolute-src/a.txt')).toBe('src/a.txt');
    expect(await relativeOf('src/up/src/a.txt')).toBe('src/a.txt');
    expect(await relativeOf('back-in/a.txt')).toBe('src/a.txt');
    expect(await relativeOf('src/new/deeper.txt')).toBe('src/new/deeper.txt');
    for (const path of ['out/a.txt', 'out/new.txt', 'src/too-far/proj-evil/a.txt']) {
      await expect(walkBeneath(root, path).catch(reason), path).resolves.toBe('outside');
    }
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    await expect(walkBeneath(root, 'loop-a/x').catch(reason)).resolves.toBe('loop');
    await expect(walkBeneath(root, 'src/a.txt/x').catch(reason)).resolves.toBe('not-folder');
  });

  it('reads and writes in the folder that was checked even after it is swapped for a link to outside', async () => {
    const { root, evil } = await layout();
    const entry = await walkBeneath(root, 'src/a.txt');
    const created = await walkBeneath(root, 'src/created.txt');
    try {
      await rename(join(root, 'src'), join(root, 'src-moved'));
      await symlink(evil, join(root, 'src'));
      const opened = await openEntryForReading(root, entry, 'src/a.txt');
      expect(await opened?.handle.readFile('utf8')).toBe('inside\n');
      await opened?.handle.close();
      // The folder moved (still inside): the write is refused rather than landing where the checks were not made.
      await expect(replaceFileAtomically(created, Buffer.from('x'), { root, displayPath: 'src/created.txt' })).rejects.toThrow(/moved or replaced/);
    } finally {
      await entry.folder.close();
      await created.folder.close();
    }
    expect(await readdir(evil)).toEqual(['a.txt']);
    expect(await readFile(join(evil, 'a.txt'), 'utf8')).toBe('evil\n');
    expect(await readdir(join(root, 'src-moved'))).toEqual(['a.txt']);
  });

  it('creates missing folders one by one inside the folder before, never through a link', async () => {
    const { root, evil } = await layout();
    await symlink(evil, join(root, 'src', 'out'));
    const entry = await walkBeneath(root, 'src/new/deep/file.txt', { createFolders: true });
    await replaceFileAtomically(entry, Buffer.from('made\n'), { root, displayPath: 'src/new/deep/file.txt' });
    await entry.folder.close();
    expect(await readFile(join(root, 'src', 'new', 'deep', 'file.txt'), 'utf8')).toBe('made\n');
    await expect(walkBeneath(root, 'src/out/new/file.txt', { createFolders: true }).catch(reason)).resolves.toBe('outside');
    expect(await readdir(evil)).toEqual(['a.txt']);
  });

  it('keeps a final link itself when asked (delete), and resolves it otherwise', async () => {
    const { root, evil } = await layout();
    await symlink(join(evil, 'a.txt'), join(root, 'to-evil.txt'));
    const kept = await walkBeneath(root, 'to-evil.txt', { followLast: false });
    await kept.folder.close();
    expect(kept.stats?.isSymbolicLink()).toBe(true);
    await expect(walkBeneath(root, 'to-evil.txt').catch(reason)).resolves.toBe('outside');
    await expect(resolveWorkspacePath(root, 'to-evil.txt')).rejects.toThrow(/symbolic link.*outside the workspace/);
  });
});

describe('hard links', () => {
  it('are readable below node_modules (package stores) and refused elsewhere, for reading and writing', async () => {
    const { root, evil } = await layout();
    await mkdir(join(root, 'node_modules', '.pnpm', 'zod'), { recursive: true });
    await link(join(evil, 'a.txt'), join(root, 'node_modules', '.pnpm', 'zod', 'index.js'));
    await link(join(evil, 'a.txt'), join(root, 'hard.txt'));
    expect(hardLinkReadRefusal('node_modules/.pnpm/zod/index.js', 2)).toBeUndefined();
    expect(hardLinkReadRefusal('hard.txt', 2)).toMatch(/hard link/);
    expect(hardLinkReadRefusal('hard.txt', 1)).toBeUndefined();
    const store = await walkBeneath(root, 'node_modules/.pnpm/zod/index.js');
    const opened = await openEntryForReading(root, store, 'index.js');
    expect(await opened?.handle.readFile('utf8')).toBe('evil\n');
    await opened?.handle.close();
    await expect(replaceFileAtomically(store, Buffer.from('x'), { root, displayPath: 'index.js' })).rejects.toThrow(/hard link/);
    await store.folder.close();
    const plain = await walkBeneath(root, 'hard.txt');
    await expect(openEntryForReading(root, plain, 'hard.txt')).rejects.toThrow(/hard link/);
    await plain.folder.close();
  });
});

describe('pathsForRules', () => {
  it('gives each path as written and as it resolves, once each', async () => {
    const { root } = await layout();
    await symlink('src', join(root, 'link-src'));
    await symlink('..', join(root, 'src', 'up'));
    expect(await pathsForRules(['link-src/a.txt', 'src/a.txt'], root)).toEqual([join(root, 'link-src', 'a.txt'), join(root, 'src', 'a.txt')]);
    expect(await pathsForRules(['src/up/README.md'], root)).toEqual([join(root, 'src', 'up', 'README.md'), join(root, 'README.md')]);
  });

  it('leaves out a resolved form outside the workspace (the tools refuse it; delete removes the link itself)', async () => {
    const { root, evil } = await layout();
    await symlink(evil, join(root, 'out'));
    expect(await pathsForRules(['out', 'out/a.txt'], root)).toEqual([join(root, 'out'), join(root, 'out', 'a.txt')]);
  });
});

describe('sweepStaleTemporaryFiles', () => {
  it('removes only temp files of the agent whose writer process is gone', async () => {
    const { root } = await layout();
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const names = {
        dead: `.a.txt.cairn-${dead.toString(36)}-0badf00d.tmp`,
        live: `.a.txt.cairn-${(live.pid as number).toString(36)}-0badf00d.tmp`,
        ours: temporaryFileName('a.txt'),
        other: '.a.txt.cairn-notes.tmp',
      };
      for (const name of Object.values(names)) await writeFile(join(root, 'src', name), 'partial');
      await mkdir(join(root, 'node_modules'));
      await writeFile(join(root, 'node_modules', names.dead), 'partial');
      expect(await sweepStaleTemporaryFiles(root)).toBe(1);
      expect((await readdir(join(root, 'src'))).sort()).toEqual([names.other, names.live, names.ours, 'a.txt'].sort());
      // Once per process and workspace: a later call does not walk again.
      await writeFile(join(root, names.dead), 'partial');
      expect(await sweepStaleTemporaryFiles(root)).toBe(1);
      expect(await readdir(join(root, 'node_modules'))).toEqual([names.dead]);
    } finally {
      live.kill('SIGKILL');
    }
  });
});
