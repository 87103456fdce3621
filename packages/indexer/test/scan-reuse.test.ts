import { readdirSync, utimesSync } from 'node:fs';
import { appendFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../src/index.js';
import type { CodebaseIndex } from '../src/index.js';
import { scanWorkspace } from '../src/scan-workspace.js';
import { closeAfterEach, tempWorkspace } from './helpers.js';

// A sync reuses the listing of every folder whose mtime did not change and answers "unchanged"
// without touching the files table when every file is as the last sync left it. These tests make
// the changes that a folder's mtime does and does not show, and check that the index sees them.

const files = {
  'src/auth/login.ts': 'export function validateUserPassword(user: string) {\n  return user;\n}\n',
  'src/auth/deep/token.ts': 'export class TokenIssuer {}\n',
  'src/db/pool.py': 'class ConnectionPool:\n    pass\n',
  'README.md': 'Demo project.\n',
};

const { indexes, cleanups } = closeAfterEach();

/** Move every folder's mtime an hour back, out of the window in which a folder is not trusted. */
function ageFolders(root: string): void {
  const past = new Date(Date.now() - 3600_000);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) utimesSync(join(entry.parentPath, entry.name), past, past);
  }
  utimesSync(root, past, past);
}

async function setUp(extra: Record<string, string> = {}) {
  const workspace = await tempWorkspace({ ...files, ...extra });
  cleanups.push(workspace.cleanup);
  ageFolders(workspace.root);
  const index = await createIndex({ cwd: workspace.root, home: workspace.home, maxFileBytes: 4096 });
  indexes.push(index);
  await index.sync();
  return { workspace, index };
}

const paths = async (index: CodebaseIndex, query: string) => (await index.search(query)).map((hit) => hit.path);

describe('scanWorkspace with the previous listings', () => {
  it('reads no folder when none changed, and only the changed one otherwise', async () => {
    const workspace = await tempWorkspace(files);
    cleanups.push(workspace.cleanup);
    ageFolders(workspace.root);
    const limits = { maxFileBytes: 4096, maxFiles: 1000 };
    const first = await scanWorkspace(workspace.root, limits);
    expect(first.foldersRead).toBe(5);
    const second = await scanWorkspace(workspace.root, { ...limits, previousFolders: first.folders });
    expect(second.foldersRead).toBe(0);
    expect(second.files).toEqual(first.files);
    await writeFile(join(workspace.root, 'src/db/extra.py'), 'x = 1\n');
    const third = await scanWorkspace(workspace.root, { ...limits, previousFolders: second.folders });
    expect(third.foldersRead).toBe(1);
    expect(third.files.map((file) => file.path)).toContain('src/db/extra.py');
  });

  it('does not trust a folder modified in the last two seconds', async () => {
    const workspace = await tempWorkspace(files);
    cleanups.push(workspace.cleanup);
    const first = await scanWorkspace(workspace.root, { maxFileBytes: 4096, maxFiles: 1000 });
    expect(first.folders['src/db']?.mtimeMs).toBe(-1);
    const second = await scanWorkspace(workspace.root, { maxFileBytes: 4096, maxFiles: 1000, previousFolders: first.folders });
    expect(second.foldersRead).toBe(5);
  });
});

describe('sync on top of the scan state', () => {
  it('sees a file edited in place, although its folder’s mtime did not change', async () => {
    const { workspace, index } = await setUp();
    const folderBefore = (await import('node:fs')).statSync(join(workspace.root, 'src/auth')).mtimeMs;
    await appendFile(join(workspace.root, 'src/auth/login.ts'), 'export function rotateSigningKeys() {}\n');
    expect((await import('node:fs')).statSync(join(workspace.root, 'src/auth')).mtimeMs).toBe(folderBefore);
    expect(await index.sync()).toMatchObject({ indexedFiles: 1, unchangedFiles: 3 });
    expect(await paths(index, 'rotateSigningKeys')).toContain('src/auth/login.ts');
    expect(await index.sync()).toMatchObject({ indexedFiles: 0, unchangedFiles: 4, removedFiles: 0 });
  });

  it('sees added, removed and renamed files', async () => {
    const { workspace, index } = await setUp();
    await workspace.write('src/auth/deep/session.ts', 'export function openSessionCookie() {}\n');
    await (await import('node:fs/promises')).rename(join(workspace.root, 'src/db/pool.py'), join(workspace.root, 'src/db/pools.py'));
    await (await import('node:fs/promises')).rm(join(workspace.root, 'README.md'));
    expect(await index.sync()).toMatchObject({ indexedFiles: 2, removedFiles: 2 });
    expect(await paths(index, 'openSessionCookie')).toEqual(['src/auth/deep/session.ts']);
    expect(await paths(index, 'ConnectionPool')).toEqual(['src/db/pools.py']);
    expect((await index.stats()).files).toBe(4);
  });

  it('applies an ignore file edited in place to folders whose listing was reused', async () => {
    const { workspace, index } = await setUp({ '.gitignore': 'dist/\n' });
    ageFolders(workspace.root);
    await index.sync();
    expect(await paths(index, 'TokenIssuer')).toContain('src/auth/deep/token.ts');
    const gitignore = join(workspace.root, '.gitignore');
    await writeFile(gitignore, 'dist/\ntoken.ts\n');
    expect(await index.sync()).toMatchObject({ removedFiles: 1 });
    expect(await paths(index, 'TokenIssuer')).not.toContain('src/auth/deep/token.ts');
    await writeFile(gitignore, 'dist/\n');
    // token.ts again, and the .gitignore itself (it is text, so it is indexed too).
    expect(await index.sync()).toMatchObject({ indexedFiles: 2 });
    expect(await paths(index, 'TokenIssuer')).toEqual(['src/auth/deep/token.ts']);
  });

  it('applies a new nested ignore file to the folders below it', async () => {
    const { workspace, index } = await setUp();
    await workspace.write('src/auth/.gitignore', 'token.ts\n');
    // Only src/auth changed; src/auth/deep (where the ignored file is) keeps its mtime.
    expect(await index.sync()).toMatchObject({ removedFiles: 1 });
    expect(await paths(index, 'TokenIssuer')).not.toContain('src/auth/deep/token.ts');
  });

  it('indexes again what removeFiles took out, although nothing changed on disk', async () => {
    const { index } = await setUp();
    expect(await index.removeFiles(['src/db/pool.py'])).toBe(1);
    expect(await index.sync()).toMatchObject({ indexedFiles: 1 });
    expect(await paths(index, 'ConnectionPool')).toEqual(['src/db/pool.py']);
  });

  it('keeps the root hash and counts skipped files by reason on the unchanged path too', async () => {
    const { workspace, index } = await setUp({ 'big.txt': 'x'.repeat(5000), 'image.bin': 'PNG\0\0data' });
    const bigger = join(workspace.root, 'huge.log');
    await writeFile(bigger, 'y'.repeat(9000));
    await utimes(workspace.root, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    const first = await index.sync();
    expect(first).toMatchObject({ skippedFiles: 3, skipped: { tooLarge: 2, binary: 1, unreadable: 0 } });
    expect(first.largestSkipped).toEqual([
      { path: 'huge.log', bytes: 9000, reason: 'tooLarge' },
      { path: 'big.txt', bytes: 5000, reason: 'tooLarge' },
      { path: 'image.bin', bytes: 9, reason: 'binary' },
    ]);
    const second = await index.sync();
    expect(second).toEqual({ ...first, indexedFiles: 0, unchangedFiles: 4 });
  });
});
