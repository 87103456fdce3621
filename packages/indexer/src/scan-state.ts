import type { IndexStore } from './index-store.js';
import type { FolderListing, ScanResult, ScannedFile, SkipReason } from './scan-workspace.js';

/**
 * What the last complete `sync()` saw, kept in the index's `meta` table: every folder it walked
 * (with its mtime and ignore files) and every file (with its size and mtime), and the files found
 * binary or unreadable. The next sync first checks the tree against it with one stat per folder and
 * file (tree-check.ts); only when something differs does it walk, reusing the listings of folders
 * whose mtime did not change. That is what makes `cairn search` on an unchanged tree cost a stat per
 * file and little more.
 *
 * Stored as one blob, not JSON: parsing 13 000 names and 27 000 numbers out of JSON cost 7-45 ms per
 * `cairn search` on a 1M-line tree; here the names are one string split at NUL (a byte no path
 * holds) and the numbers a Float64Array copied as is.
 */
export interface ScanState {
  maxFileBytes: number;
  maxFiles: number;
  /** The walk stopped at `maxFiles`: the state does not describe the whole tree. */
  truncated: boolean;
  /** Files that were not indexed because of what reading them showed. */
  skippedWhenRead: Record<string, SkipReason>;
  /** Walked folders, root ('') first, parents before children. */
  folders: string[];
  /** Per folder: its mtime when read (-1: too recent to trust) and how many of `fileNames` are its. */
  folderStats: Float64Array;
  /** The files' names, folder by folder in the order of `folders`. */
  fileNames: string[];
  /** Per file: size, mtime. */
  fileStats: Float64Array;
  /** Ignore files: index into `folders`, name, size, mtime. */
  ignoreFiles: Array<[number, string, number, number]>;
}

interface StateHeader {
  version: 3;
  maxFileBytes: number;
  maxFiles: number;
  truncated: boolean;
  skippedWhenRead: Record<string, SkipReason>;
  ignoreFiles: ScanState['ignoreFiles'];
  folderCount: number;
  fileCount: number;
}

const metaKey = 'scan_state';

/**
 * Layout: u32 header bytes, u32 names bytes, header (JSON), names (NUL-separated), then the numbers.
 * Undefined when there is none, for a damaged blob, another version, or a state made with other limits.
 */
export function readScanState(store: IndexStore, limits: { maxFileBytes: number; maxFiles: number }): ScanState | undefined {
  const value = store.db.prepare('select value from meta where key = ?').pluck().get(metaKey);
  // '' = cleared; text = a state of an earlier version (JSON).
  if (!Buffer.isBuffer(value) || value.length < 8) return undefined;
  try {
    const headerEnd = 8 + value.readUInt32LE(0);
    const namesEnd = headerEnd + value.readUInt32LE(4);
    const header = JSON.parse(value.toString('utf8', 8, headerEnd)) as StateHeader;
    if (header.version !== 3 || header.maxFileBytes !== limits.maxFileBytes || header.maxFiles !== limits.maxFiles) return undefined;
    const names = header.folderCount + header.fileCount > 0 ? value.toString('utf8', headerEnd, namesEnd).split('\0') : [];
    // Copied: the blob's offset in its buffer need not be a multiple of 8.
    const numbers = new Float64Array(2 * (header.folderCount + header.fileCount));
    new Uint8Array(numbers.buffer).set(value.subarray(namesEnd, namesEnd + numbers.byteLength));
    if (names.length !== header.folderCount + header.fileCount || value.length !== namesEnd + numbers.byteLength) return undefined;
    return {
      maxFileBytes: header.maxFileBytes, maxFiles: header.maxFiles, truncated: header.truncated, skippedWhenRead: header.skippedWhenRead, ignoreFiles: header.ignoreFiles,
      folders: names.slice(0, header.folderCount), fileNames: names.slice(header.folderCount),
      folderStats: numbers.subarray(0, 2 * header.folderCount), fileStats: numbers.subarray(2 * header.folderCount),
    };
  } catch {
    return undefined;
  }
}

/** Forget the state: the index no longer matches what it describes (a sync in progress, removeFiles). */
export function clearScanState(store: IndexStore): void {
  store.setMeta(metaKey, '');
}

export function writeScanState(store: IndexStore, scan: ScanResult, limits: { maxFileBytes: number; maxFiles: number }, skippedWhenRead: Map<string, SkipReason>): void {
  const folders = Object.keys(scan.folders);
  const listings = Object.values(scan.folders);
  const fileCount = listings.reduce((sum, listing) => sum + listing.files.length, 0);
  const folderStats = new Float64Array(2 * folders.length);
  const fileStats = new Float64Array(2 * fileCount);
  const fileNames: string[] = [];
  const ignoreFiles: ScanState['ignoreFiles'] = [];
  let offset = 0;
  listings.forEach((listing, index) => {
    folderStats[2 * index] = listing.mtimeMs;
    folderStats[2 * index + 1] = listing.files.length;
    for (const name of listing.files) fileNames.push(name);
    fileStats.set(listing.fileStats.slice(0, 2 * listing.files.length), offset);
    offset += 2 * listing.files.length;
    for (const [name, size, mtimeMs] of listing.ignoreFiles) ignoreFiles.push([index, name, size, mtimeMs]);
  });
  saveScanState(store, { ...limits, truncated: scan.truncated, skippedWhenRead: Object.fromEntries(skippedWhenRead), folders, folderStats, fileNames, fileStats, ignoreFiles });
}

/** Store a state (a new one, or the last one with files edited in place brought up to date). */
export function saveScanState(store: IndexStore, state: ScanState): void {
  const header: StateHeader = {
    version: 3, maxFileBytes: state.maxFileBytes, maxFiles: state.maxFiles, truncated: state.truncated, skippedWhenRead: state.skippedWhenRead,
    ignoreFiles: state.ignoreFiles, folderCount: state.folders.length, fileCount: state.fileNames.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const nameBytes = Buffer.from([...state.folders, ...state.fileNames].join('\0'));
  const lengths = Buffer.alloc(8);
  lengths.writeUInt32LE(headerBytes.length, 0);
  lengths.writeUInt32LE(nameBytes.length, 4);
  const numbers = (array: Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  const blob = Buffer.concat([lengths, headerBytes, nameBytes, numbers(state.folderStats), numbers(state.fileStats)]);
  store.db.prepare('insert into meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value').run(metaKey, blob);
}

/** The folder listings of the state, for a walk that reuses the unchanged ones (scanWorkspace). */
export function stateListings(state: ScanState): Record<string, FolderListing> {
  const listings: Record<string, FolderListing> = {};
  let first = 0;
  state.folders.forEach((folder, index) => {
    const count = state.folderStats[2 * index + 1] as number;
    listings[folder] = {
      mtimeMs: state.folderStats[2 * index] as number, folders: [], ignoreFiles: [],
      files: state.fileNames.slice(first, first + count), fileStats: Array.from(state.fileStats.subarray(2 * first, 2 * (first + count))),
    };
    first += count;
    if (folder === '') return;
    const slash = folder.lastIndexOf('/');
    listings[slash < 0 ? '' : folder.slice(0, slash)]?.folders.push(folder.slice(slash + 1));
  });
  for (const [index, name, size, mtimeMs] of state.ignoreFiles) listings[state.folders[index] as string]?.ignoreFiles.push([name, size, mtimeMs]);
  return listings;
}

/** The files the state records, split at `maxFileBytes` as a scan would split them. */
export function stateFiles(state: ScanState): { files: number; tooLarge: ScannedFile[]; sizeOf(path: string): number } {
  const tooLarge: ScannedFile[] = [];
  const sizes = new Map<string, number>();
  const wanted = new Set(Object.keys(state.skippedWhenRead));
  let file = 0;
  state.folders.forEach((folder, index) => {
    const count = state.folderStats[2 * index + 1] as number;
    for (let end = file + count; file < end; file++) {
      const size = state.fileStats[2 * file] as number;
      if (size <= state.maxFileBytes && wanted.size === 0) continue;
      const path = folder === '' ? (state.fileNames[file] as string) : `${folder}/${state.fileNames[file]}`;
      if (size > state.maxFileBytes) tooLarge.push({ path, size, mtimeMs: state.fileStats[2 * file + 1] as number });
      else if (wanted.has(path)) sizes.set(path, size);
    }
  });
  const byPath = (left: ScannedFile, right: ScannedFile) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
  return { files: state.fileStats.length / 2 - tooLarge.length, tooLarge: tooLarge.sort(byPath), sizeOf: (path) => sizes.get(path) ?? 0 };
}
