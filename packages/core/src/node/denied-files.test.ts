import { link, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeniedFilesIndex, deniedFilesLimits, findDeniedFiles, hardLinkToDeniedFile } from './denied-files.js';

async function workspace() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-denied-')));
  const root = join(base, 'proj');
  const home = join(base, 'home');
  for (const folder of [join(root, 'a', 'b'), join(root, 'node_modules', 'pkg'), join(root, '.git'), join(root, 'config', 'secrets'), join(home, '.ssh'), join(base, 'outside')]) {
    await mkdir(folder, { recursive: true });
  }
  for (const [path, text] of [
    ['proj/.env', 'x'], ['proj/a/b/.env.local', 'x'], ['proj/node_modules/pkg/.env', 'x'], ['proj/.git/.env', 'x'], ['proj/config/secrets/key.pem', 'x'],
    ['proj/readme.md', 'x'], ['home/.ssh/id_rsa', 'x'], ['outside/token', 'x'],
  ] as const) {
    await writeFile(join(base, path), text);
  }
  return { base, root, home };
}

const limit = deniedFilesLimits.maxEntries;
afterEach(() => {
  deniedFilesLimits.maxEntries = limit;
});

describe('findDeniedFiles', () => {
  it('expands every kind of read deny glob on disk, canonically', async () => {
    const { base, root, home } = await workspace();
    await symlink(join(base, 'outside', 'token'), join(root, '.env.link'));
    const found = await findDeniedFiles({ root, homes: [home], globs: ['.env*', 'config/secrets/**', '~/.ssh/**', `${base}/outside/*`] });
    expect(found.complete).toBe(true);
    // A folder-less glob matches at any depth, but not inside node_modules or .git; a symlink counts as its target.
    expect(found.paths.sort()).toEqual([join(base, 'outside', 'token'), join(home, '.ssh'), join(root, '.env'), join(root, 'a', 'b', '.env.local'), join(root, 'config', 'secrets')].sort());
  });

  it('searches node_modules or .git when a glob names them', async () => {
    const { root, home } = await workspace();
    const found = await findDeniedFiles({ root, homes: [home], globs: ['node_modules/**/.env'] });
    expect(found.paths).toEqual([join(root, 'node_modules', 'pkg', '.env')]);
  });

  it('finds the other names of a denied file (hard links) and tells discovery tools about them', async () => {
    const { root, home } = await workspace();
    await link(join(root, '.env'), join(root, 'a', 'notes.txt'));
    await link(join(root, 'config', 'secrets', 'key.pem'), join(root, 'key-copy.txt'));
    const found = await findDeniedFiles({ root, homes: [home], globs: ['.env', 'config/secrets'] });
    expect(found.paths.sort()).toEqual([join(root, '.env'), join(root, 'a', 'notes.txt'), join(root, 'config', 'secrets'), join(root, 'key-copy.txt')].sort());
    expect(hardLinkToDeniedFile(join(root, 'a', 'notes.txt'), found)).toBe(join(root, '.env'));
    expect(hardLinkToDeniedFile(join(root, 'key-copy.txt'), found)).toBe(join(root, 'config', 'secrets'));
    expect(hardLinkToDeniedFile(join(root, 'readme.md'), found)).toBeUndefined();
  });

  it('reports an incomplete search, and then treats every multiply-linked file as possibly denied', async () => {
    const { root, home } = await workspace();
    await link(join(root, 'readme.md'), join(root, 'readme-link.md'));
    deniedFilesLimits.maxEntries = 3;
    const found = await findDeniedFiles({ root, homes: [home], globs: ['**/*.pem'] });
    expect(found.complete).toBe(false);
    expect(hardLinkToDeniedFile(join(root, 'readme-link.md'), found)).toMatch(/did not reach/);
    expect(hardLinkToDeniedFile(join(root, '.env'), found)).toBeUndefined();
  });

  it('caches a search for a moment and shares it between concurrent callers', async () => {
    const { root, home } = await workspace();
    const index = createDeniedFilesIndex({ root, homes: [home], globs: ['.env'] }, 60_000);
    expect(index.latest()).toBeUndefined();
    const [first, second] = await Promise.all([index.current(), index.current()]);
    expect(first).toBe(second);
    expect(index.latest()?.paths).toEqual([join(root, '.env')]);
    expect((await createDeniedFilesIndex({ root, homes: [home], globs: [] }).current()).paths).toEqual([]);
  });
});
