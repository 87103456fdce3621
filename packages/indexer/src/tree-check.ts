import { lstatSync } from 'node:fs';
import type { ScanState } from './scan-state.js';

/**
 * How the tree differs from the scan state: not at all; only files edited in place (`files`: their
 * indexes in `state.fileNames`), which the index can re-read one by one; or in its structure (an
 * entry added, removed or renamed, an ignore file changed, a folder too recent to trust), which
 * needs a walk (scanWorkspace).
 */
export type TreeDiff = { kind: 'same' } | { kind: 'edited'; files: number[] } | { kind: 'structure' };

/** More files edited in place than this: a walk (which reuses unchanged folders' listings) is as cheap. */
export const maxEditedFiles = 256;

/**
 * Compare the tree with the scan state, one `lstat` per ignore file, folder and file. A folder's
 * mtime shows entries created, removed or renamed in it; a file's shows an edit in place, which
 * nothing else does — so every file is stat'ed, every time (the price of results that reflect a
 * file saved a moment ago). A file edited in place sits in a folder whose mtime did not move, so
 * when every folder matches, the edited files are the whole difference.
 *
 * Synchronous `lstat` in a tight loop: about 4 µs a file here (2 µs of it the system call), where
 * an awaited one costs ten times that.
 */
export function compareTree(root: string, state: ScanState): TreeDiff {
  if (!ignoreFilesMatch(root, state)) return { kind: 'structure' };
  const firstFiles = firstFileOfFolders(state);
  const files: number[] = [];
  const onEdited = (file: number) => files.push(file) <= maxEditedFiles;
  for (let folder = 0; folder < state.folders.length; folder++) {
    if (!compareFolder(root, state, folder, firstFiles[folder] as number, onEdited) || files.length > maxEditedFiles) return { kind: 'structure' };
  }
  return files.length === 0 ? { kind: 'same' } : { kind: 'edited', files };
}

/** True when the tree is exactly as the scan state records it. */
export function treeMatchesState(root: string, state: ScanState): boolean {
  return compareTree(root, state).kind === 'same';
}

/** The state is complete and every ignore file it knows has its recorded size and mtime. */
function ignoreFilesMatch(root: string, state: ScanState): boolean {
  if (state.truncated) return false;
  for (const [folder, name, size, mtimeMs] of state.ignoreFiles) {
    const path = state.folders[folder] === '' ? `${root}/${name}` : `${root}/${state.folders[folder]}/${name}`;
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats?.isFile() || stats.size !== size || stats.mtimeMs !== mtimeMs) return false;
  }
  return true;
}

/** Where each folder's files start in `state.fileNames` (they are stored folder by folder). */
export function firstFileOfFolders(state: ScanState): Int32Array {
  const first = new Int32Array(state.folders.length);
  let file = 0;
  for (let folder = 0; folder < state.folders.length; folder++) {
    first[folder] = file;
    file += state.folderStats[2 * folder + 1] as number;
  }
  return first;
}

/**
 * One folder: false when its structure differs (its mtime moved or was too recent to trust, it or
 * one of its files is gone or no longer a folder / regular file). A file whose size or mtime
 * differs is passed to `onEdited`, which returns false to stop (too many).
 */
function compareFolder(root: string, state: ScanState, folder: number, firstFile: number, onEdited: (file: number) => boolean): boolean {
  const name = state.folders[folder] as string;
  const stats = lstatSync(name === '' ? root : `${root}/${name}`, { throwIfNoEntry: false });
  const mtimeMs = state.folderStats[2 * folder] as number;
  if (mtimeMs === -1 || !stats?.isDirectory() || stats.mtimeMs !== mtimeMs) return false;
  const base = name === '' ? `${root}/` : `${root}/${name}/`;
  for (let file = firstFile, end = firstFile + (state.folderStats[2 * folder + 1] as number); file < end; file++) {
    const fileStats = lstatSync(base + state.fileNames[file], { throwIfNoEntry: false });
    if (!fileStats?.isFile()) return false;
    if ((fileStats.size !== state.fileStats[2 * file] || fileStats.mtimeMs !== state.fileStats[2 * file + 1]) && !onEdited(file)) return false;
  }
  return true;
}

/** The workspace-relative path of file `file` of the state. */
export function statePath(state: ScanState, firstFiles: Int32Array, file: number): string {
  // Its folder is the last one whose files start at or before it (every later folder starts after it).
  let low = 0;
  let high = state.folders.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((firstFiles[middle] as number) <= file) low = middle;
    else high = middle - 1;
  }
  const folder = state.folders[low] as string;
  return folder === '' ? (state.fileNames[file] as string) : `${folder}/${state.fileNames[file]}`;
}
