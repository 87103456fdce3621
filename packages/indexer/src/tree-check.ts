import { lstatSync } from 'node:fs';
import type { ScanState } from './scan-state.js';

/**
 * True when the tree is exactly as the scan state records it: every ignore file, folder and file has
 * its recorded size and mtime, and no folder was too recent to trust. A folder's mtime shows entries
 * created, removed or renamed in it; a file's shows an edit in place, which nothing else does — so
 * every file is stat'ed, every time (the price of results that reflect a file saved a moment ago).
 *
 * Synchronous `lstat` in a tight loop: about 4 µs a file here, where an awaited one costs ten times
 * that. It stops at the first difference; the caller then walks the tree (scanWorkspace).
 */
export function treeMatchesState(root: string, state: ScanState): boolean {
  if (state.truncated) return false;
  for (const [folder, name, size, mtimeMs] of state.ignoreFiles) {
    const path = state.folders[folder] === '' ? `${root}/${name}` : `${root}/${state.folders[folder]}/${name}`;
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats?.isFile() || stats.size !== size || stats.mtimeMs !== mtimeMs) return false;
  }
  let file = 0;
  for (let index = 0; index < state.folders.length; index++) {
    const folder = state.folders[index] as string;
    const base = folder === '' ? `${root}/` : `${root}/${folder}/`;
    const mtimeMs = state.folderStats[2 * index] as number;
    const stats = lstatSync(folder === '' ? root : `${root}/${folder}`, { throwIfNoEntry: false });
    if (mtimeMs === -1 || !stats?.isDirectory() || stats.mtimeMs !== mtimeMs) return false;
    for (const end = file + (state.folderStats[2 * index + 1] as number); file < end; file++) {
      const fileStats = lstatSync(base + state.fileNames[file], { throwIfNoEntry: false });
      if (!fileStats?.isFile() || fileStats.size !== state.fileStats[2 * file] || fileStats.mtimeMs !== state.fileStats[2 * file + 1]) return false;
    }
  }
  return true;
}
