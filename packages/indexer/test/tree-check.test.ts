import { readdirSync, statSync, utimesSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, type IndexProgress } from '../src/index.js';
import { IndexStore } from '../src/index-store.js';
import { readScanState, stateListings, writeScanState } from '../src/scan-state.js';
import { type FolderListing, scanWorkspace } from '../src/scan-workspace.js';
import { compareTree, firstFileOfFolders, statePath, treeMatchesState } from '../src/tree-check.js';
import { closeAfterEach, tempWorkspace } from './helpers.js';

// The unchanged-tree check that every `cairn search` runs before it answers: one stat per folder and
// file against the scan state. These tests make each kind of change and check that it is seen.

const files = {
  'src/auth/login.ts': 'export function validateUserPassword(user: string) {\n  return user;\n}\n',
  'src/auth/deep/token.ts': 'export class TokenIssuer {}\n',
  'src/db/pool.py': 'class ConnectionPool:\n    pass\n',
  'notes/a file with spaces and ünïcode.md': 'Notes.\n',
  '.gitignore': 'dist/\n',
  'README.md': 'Demo project.\n',
};
const limits = { maxFileBytes: 4096, maxFiles: 1000 };

const { indexes, cleanups } = closeAfterEach();

/** Move every folder's and file's mtime an hour back, out of the window in which they are not trusted. */
function ageTree(root: string): void {
  const past = new Date(Date.now() - 3600_000);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) utimesSync(join(entry.parentPath, entry.name), past, past);
  utimesSync(root, past, past);
}

async function indexedWorkspace() {
  const workspace = await tempWorkspace(files);
  cleanups.push(workspace.cleanup);
  ageTree(workspace.root);
  const index = await createIndex({ cwd: workspace.root, home: workspace.home, ...limits });
  indexes.push(index);
  await index.sync();
  const store = new IndexStore(index.dbPath);
  const state = () => {
    const read = readScanState(store, limits);
    if (!read) throw new Error('no scan state');
    return read;
  };
  return { workspace, index, state, close: () => store.close() };
}

describe('the scan state', () => {
  it('keeps every folder listing through a write and a read', async () => {
    const workspace = await tempWorkspace({ ...files, 'src/a\nnewline.ts': 'export const odd = 1;\n' });
    cleanups.push(workspace.cleanup);
    ageTree(workspace.root);
    const scan = await scanWorkspace(workspace.root, limits);
    await mkdir(workspace.home, { recursive: true });
    const store = new IndexStore(join(workspace.home, 'state.sqlite'));
    try {
      writeScanState(store, scan, limits, new Map([['src/db/pool.py', 'binary']]));
      const state = readScanState(store, limits);
      expect(state?.skippedWhenRead).toEqual({ 'src/db/pool.py': 'binary' });
      // The order of sub-folders is not kept (it does not matter to a walk).
      const sortedFolders = (listings: Record<string, FolderListing>) => Object.fromEntries(Object.entries(listings).map(([path, listing]) => [path, { ...listing, folders: [...listing.folders].sort() }]));
      expect(state && sortedFolders(stateListings(state))).toEqual(sortedFolders(scan.folders));
      // Other limits: the state does not describe what this index would hold.
      expect(readScanState(store, { ...limits, maxFileBytes: 1024 })).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe('treeMatchesState', () => {
  it('holds for the tree the last sync saw', async () => {
    const { workspace, state, close } = await indexedWorkspace();
    try {
      expect(treeMatchesState(workspace.root, state())).toBe(true);
    } finally {
      close();
    }
  });

  it('sees a file rewritten in place with the same size, its folder untouched', async () => {
    const { workspace, index, state, close } = await indexedWorkspace();
    try {
      const folder = statSync(join(workspace.root, 'src/auth')).mtimeMs;
      await writeFile(join(workspace.root, 'src/auth/login.ts'), files['src/auth/login.ts'].replace('validateUserPassword', 'rotateSigningKeysNow'));
      expect(statSync(join(workspace.root, 'src/auth')).mtimeMs).toBe(folder);
      expect(treeMatchesState(workspace.root, state())).toBe(false);
      expect(await index.sync()).toMatchObject({ indexedFiles: 1 });
      expect((await index.search('rotateSigningKeysNow'))[0]?.path).toBe('src/auth/login.ts');
    } finally {
      close();
    }
  });

  it('sees a new file, a removed one, a changed ignore file and a folder too recent to trust', async () => {
    const { workspace, index, state, close } = await indexedWorkspace();
    try {
      await writeFile(join(workspace.root, 'src/db/extra.py'), 'x = 1\n');
      expect(treeMatchesState(workspace.root, state())).toBe(false);
      await index.sync();
      // src/db was modified a moment ago: recorded as untrusted, it is read again next time.
      expect(treeMatchesState(workspace.root, state())).toBe(false);
      ageTree(workspace.root);
      await index.sync();
      expect(treeMatchesState(workspace.root, state())).toBe(true);
      await rm(join(workspace.root, 'notes/a file with spaces and ünïcode.md'));
      expect(treeMatchesState(workspace.root, state())).toBe(false);
      await index.sync();
      ageTree(workspace.root);
      await index.sync();
      expect(treeMatchesState(workspace.root, state())).toBe(true);
      await writeFile(join(workspace.root, '.gitignore'), 'dist/\n*.py\n');
      utimesSync(workspace.root, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
      expect(treeMatchesState(workspace.root, state())).toBe(false);
    } finally {
      close();
    }
  });

  it('does not trust a file written in the last moments: a rewrite within the same mtime tick is found', async () => {
    const workspace = await tempWorkspace(files);
    cleanups.push(workspace.cleanup);
    const index = await createIndex({ cwd: workspace.root, home: workspace.home, ...limits });
    indexes.push(index);
    // A whole second, so that utimes can set it again exactly; under 2 s ago, so it is recent.
    const path = join(workspace.root, 'src/db/pool.py');
    const tick = Math.floor(Date.now() / 1000);
    utimesSync(path, tick, tick);
    await index.sync();
    // The same size and the very same mtime as the content the sync read: what a second save within
    // one tick of the file system's clock looks like.
    await writeFile(path, files['src/db/pool.py'].replace('ConnectionPool', 'ConnectionPoop'));
    utimesSync(path, tick, tick);
    expect(statSync(path).mtimeMs).toBe(tick * 1000);
    expect(await index.sync()).toMatchObject({ indexedFiles: 1 });
    expect((await index.search('ConnectionPoop'))[0]?.path).toBe('src/db/pool.py');
  });
});

describe('compareTree', () => {
  it('names the files edited in place, and calls a new file a change of structure', async () => {
    const { workspace, state, close } = await indexedWorkspace();
    try {
      expect(compareTree(workspace.root, state())).toEqual({ kind: 'same' });
      await writeFile(join(workspace.root, 'src/auth/deep/token.ts'), 'export class TokenIssuer { rotate() {} }\n');
      await writeFile(join(workspace.root, 'notes/a file with spaces and ünïcode.md'), 'Other notes.\n');
      const diff = compareTree(workspace.root, state());
      expect(diff.kind).toBe('edited');
      const firstFiles = firstFileOfFolders(state());
      const edited = diff.kind === 'edited' ? diff.files.map((file) => statePath(state(), firstFiles, file)).sort() : [];
      expect(edited).toEqual(['notes/a file with spaces and ünïcode.md', 'src/auth/deep/token.ts']);
      await writeFile(join(workspace.root, 'src/auth/deep/extra.ts'), 'export const extra = 1;\n');
      expect(compareTree(workspace.root, state())).toEqual({ kind: 'structure' });
    } finally {
      close();
    }
  });

  it('finds the path of every file of the state, folders without files included', async () => {
    const workspace = await tempWorkspace({ ...files, 'empty/inner/only.ts': 'export const only = 1;\n', 'z/last.ts': 'export const last = 1;\n' });
    cleanups.push(workspace.cleanup);
    const scan = await scanWorkspace(workspace.root, limits);
    await mkdir(workspace.home, { recursive: true });
    const store = new IndexStore(join(workspace.home, 'state.sqlite'));
    try {
      writeScanState(store, scan, limits, new Map());
      const state = readScanState(store, limits);
      if (!state) throw new Error('no scan state');
      expect(state.folders).toContain('empty');
      const firstFiles = firstFileOfFolders(state);
      const all = state.fileNames.map((_, file) => statePath(state, firstFiles, file)).sort();
      expect(all).toEqual(scan.files.map((file) => file.path).sort());
    } finally {
      store.close();
    }
  });
});

describe('sync of files edited in place', () => {
  it('re-reads only the edited files, without a walk, and leaves the state a fresh walk would write', async () => {
    const workspace = await tempWorkspace(files);
    cleanups.push(workspace.cleanup);
    ageTree(workspace.root);
    const progress: IndexProgress[] = [];
    const index = await createIndex({ cwd: workspace.root, home: workspace.home, ...limits, onProgress: (event) => progress.push(event) });
    indexes.push(index);
    expect(await index.sync()).toMatchObject({ indexedFiles: 6 });
    await writeFile(join(workspace.root, 'src/db/pool.py'), 'class ConnectionPoolWithRetries:\n    pass\n');
    // Out of the window in which a file just written is not trusted; its folder keeps its mtime.
    utimesSync(join(workspace.root, 'src/db/pool.py'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    progress.length = 0;
    expect(await index.sync()).toMatchObject({ indexedFiles: 1, unchangedFiles: 5, removedFiles: 0 });
    // A walk reports the files it finds as it goes (totalFiles 0); this path only its total.
    expect(progress.filter((event) => event.phase === 'scan')).toEqual([{ phase: 'scan', files: 6, totalFiles: 6, chunks: 0, embedded: 0 }]);
    expect((await index.search('ConnectionPoolWithRetries'))[0]?.path).toBe('src/db/pool.py');
    const store = new IndexStore(index.dbPath);
    try {
      const state = readScanState(store, limits);
      const walked = await scanWorkspace(workspace.root, limits);
      expect(state && stateListings(state)['src/db']?.fileStats).toEqual(walked.folders['src/db']?.fileStats);
      expect(state && treeMatchesState(workspace.root, state)).toBe(true);
    } finally {
      store.close();
    }
    expect(await index.sync()).toMatchObject({ indexedFiles: 0, unchangedFiles: 6 });
    // The same Merkle root as an index built from scratch over the edited tree.
    const fresh = await createIndex({ cwd: workspace.root, home: join(workspace.home, 'other'), ...limits });
    indexes.push(fresh);
    expect((await index.stats()).rootHash).toBe((await fresh.sync()).rootHash);
  });

  it('walks when an edited file becomes binary or too large, and counts it as skipped', async () => {
    const { workspace, index } = await indexedWorkspace();
    await writeFile(join(workspace.root, 'src/db/pool.py'), 'binary\0data');
    await writeFile(join(workspace.root, 'src/auth/login.ts'), 'x'.repeat(5000));
    const result = await index.sync();
    expect(result).toMatchObject({ skipped: { tooLarge: 1, binary: 1, unreadable: 0 } });
    expect(await index.search('ConnectionPool')).toEqual([]);
    expect(await index.search('validateUserPassword')).toEqual([]);
  });
});
