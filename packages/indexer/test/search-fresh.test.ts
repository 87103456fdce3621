import { readdirSync, statSync, utimesSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../src/index.js';
import { closeAfterEach, hashedBagOfWordsModel, tempWorkspace } from './helpers.js';

// searchFresh must never return an answer older than the tree: each kind of change is made here
// and the next answer must show it.

const { indexes, cleanups } = closeAfterEach();

/** Move every folder's and file's mtime an hour back, out of the window in which they are not trusted. */
function ageTree(root: string): void {
  const past = new Date(Date.now() - 3600_000);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) utimesSync(join(entry.parentPath, entry.name), past, past);
  utimesSync(root, past, past);
}

/** `folders` folders of `perFolder` text files each, plus one TypeScript file to search for. */
function treeFiles(folders: number, perFolder: number): Record<string, string> {
  const files: Record<string, string> = { 'src/auth/login.ts': 'export function validateUserPassword(user: string) {\n  return user;\n}\n' };
  for (let folder = 0; folder < folders; folder++) {
    for (let file = 0; file < perFolder; file++) files[`notes/section-${folder}/meeting-notes-number-${file}.txt`] = `Notes ${folder} ${file}.\n`;
  }
  return files;
}

async function indexedTree(files: Record<string, string>) {
  const workspace = await tempWorkspace(files);
  cleanups.push(workspace.cleanup);
  ageTree(workspace.root);
  const index = await createIndex({ cwd: workspace.root, home: workspace.home, parseWorkers: 0 });
  indexes.push(index);
  await index.sync();
  return { workspace, index };
}

const paths = async (results: Promise<Array<{ path: string }>>) => (await results).map((hit) => hit.path);

/** The edits every kind of tree must show in the next answer. */
async function expectFreshAnswers(workspace: { root: string }, index: Awaited<ReturnType<typeof createIndex>>) {
  expect(await paths(index.searchFresh('validateUserPassword'))).toEqual(['src/auth/login.ts']);
  // Edited in place: the folder's mtime does not move.
  const folder = statSync(join(workspace.root, 'src/auth')).mtimeMs;
  await writeFile(join(workspace.root, 'src/auth/login.ts'), 'export function rotateSigningKeys(user: string) {\n  return user;\n}\n');
  expect(statSync(join(workspace.root, 'src/auth')).mtimeMs).toBe(folder);
  expect(await paths(index.searchFresh('rotateSigningKeys'))).toEqual(['src/auth/login.ts']);
  expect((await index.searchFresh('validateUserPassword')).map((hit) => hit.symbol)).not.toContain('validateUserPassword');
  // Added, then deleted.
  await writeFile(join(workspace.root, 'src/auth/session.ts'), 'export function openSessionCookie() {}\n');
  expect(await paths(index.searchFresh('openSessionCookie'))).toEqual(['src/auth/session.ts']);
  await rm(join(workspace.root, 'src/auth/session.ts'));
  expect(await index.searchFresh('openSessionCookie')).toEqual([]);
  // Saved twice within one tick of a clock with 2-second granularity: same size, the very same mtime.
  const path = join(workspace.root, 'src/auth/login.ts');
  const tick = 2 * Math.floor(Date.now() / 2000);
  await writeFile(path, 'export function rotateSigningKeys(user: string) {\n  return user;\n}\n');
  utimesSync(path, tick, tick);
  expect(await paths(index.searchFresh('rotateSigningKeys'))).toEqual(['src/auth/login.ts']);
  await writeFile(path, 'export function rotateSigningKeyz(user: string) {\n  return user;\n}\n');
  utimesSync(path, tick, tick);
  expect(await paths(index.searchFresh('rotateSigningKeyz'))).toEqual(['src/auth/login.ts']);
}

describe('searchFresh', () => {
  it('answers from a small tree as sync() then search() would, and shows every change', async () => {
    const { workspace, index } = await indexedTree(treeFiles(3, 2));
    expect(await index.searchFresh('meeting notes')).toEqual(await index.search('meeting notes'));
    await expectFreshAnswers(workspace, index);
  });

  it('shows every change on a tree of about 1 500 files', async () => {
    const { workspace, index } = await indexedTree(treeFiles(50, 30));
    await expectFreshAnswers(workspace, index);
  });

  it('indexes a workspace it has never seen before answering', async () => {
    const workspace = await tempWorkspace(treeFiles(2, 2));
    cleanups.push(workspace.cleanup);
    const index = await createIndex({ cwd: workspace.root, home: workspace.home });
    indexes.push(index);
    expect(await paths(index.searchFresh('validateUserPassword'))).toEqual(['src/auth/login.ts']);
    expect((await index.stats()).files).toBe(5);
  });

  it('with an embedding model, embeds what is pending before the query', async () => {
    const workspace = await tempWorkspace(treeFiles(1, 2));
    cleanups.push(workspace.cleanup);
    const plain = await createIndex({ cwd: workspace.root, home: workspace.home });
    await plain.sync();
    plain.close();
    const index = await createIndex({ cwd: workspace.root, home: workspace.home, embeddingModel: hashedBagOfWordsModel() });
    indexes.push(index);
    expect(await paths(index.searchFresh('validateUserPassword'))).toContain('src/auth/login.ts');
    const stats = await index.stats();
    expect(stats.vectors).toBe(stats.chunks);
  });
});
