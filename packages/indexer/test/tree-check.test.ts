import { readdirSync, statSync, utimesSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../src/index.js';
import { IndexStore } from '../src/index-store.js';
import { readScanState, stateListings, writeScanState } from '../src/scan-state.js';
import { type FolderListing, scanWorkspace } from '../src/scan-workspace.js';
import { treeMatchesState } from '../src/tree-check.js';
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
