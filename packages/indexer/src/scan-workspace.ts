import { constants, type Dirent, lstatSync, statSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreRules, ignoreFileNames } from '@cairn/core/workspace-files';

export interface ScannedFile {
  /** Posix path relative to the root. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** Why a file of the workspace is not in the index. Binary and unreadable files are found when read. */
export type SkipReason = 'tooLarge' | 'binary' | 'unreadable';

/** What one folder held at the last scan: enough to walk it again without reading it (see scanWorkspace). */
export interface FolderListing {
  /** The folder's mtime when it was read; -1 when it was too recent to trust (see `racyWindowMs`). */
  mtimeMs: number;
  /** Sub-folders that are not ignored. */
  folders: string[];
  /** Regular files that are not ignored. */
  files: string[];
  /** Size and mtime of each of `files` at the end of the scan, flat: size0, mtime0, size1, mtime1, ... */
  fileStats: number[];
  /** The folder's ignore files: name, size, mtime. */
  ignoreFiles: Array<[string, number, number]>;
}

export interface ScanOptions {
  maxFileBytes: number;
  maxFiles: number;
  abortSignal?: AbortSignal;
  onFile?: (count: number) => void;
  /** Listings of the last scan: folders whose mtime did not change are not read again. */
  previousFolders?: Record<string, FolderListing>;
}

export interface ScanResult {
  /** Files to index (not over `maxFileBytes`), sorted by path. */
  files: ScannedFile[];
  tooLarge: ScannedFile[];
  truncated: boolean;
  rules: IgnoreRules;
  folders: Record<string, FolderListing>;
  /** Folders listed with readdir (the others were reused from `previousFolders`). */
  foldersRead: number;
  /** True when no folder was read and every file has the size and mtime `previousFolders` recorded. */
  unchanged: boolean;
}

/**
 * A folder or file modified this recently may change again within the same timestamp tick (Linux
 * stamps with a clock that advances every few milliseconds), after it was read: its mtime would then
 * not show the change. Such a folder is read again next time, and such a file is recorded with mtime
 * -1, which matches nothing, so the next sync reads and hashes it again (git's "racily clean" entries).
 */
const racyWindowMs = 2000;

/** The mtime to record for something stat'ed or read now: -1 while it is too recent to trust. */
export function trustedMtime(mtimeMs: number, now = Date.now()): number {
  return now - mtimeMs < racyWindowMs ? -1 : mtimeMs;
}

/** Stats are taken in slices with a yield between them, so a large tree never blocks a server for long. */
const statSlice = 500;

/**
 * Walk the workspace top-down with the nested ignore files. Symbolic links are never followed
 * (neither files nor folders), so nothing outside the root is indexed and link loops cannot occur.
 *
 * With `previousFolders`, a folder whose mtime is unchanged is not read: a folder's mtime changes
 * when an entry is created, removed or renamed in it, so its names are the same; its files are still
 * stat'ed, because a file edited in place changes only its own mtime. The reuse needs the ignore
 * rules to be unchanged: every known ignore file is stat'ed first (any change: nothing is reused),
 * and a re-read folder whose ignore files differ reads its whole subtree again.
 */
export async function scanWorkspace(root: string, options: ScanOptions): Promise<ScanResult> {
  const rules = await IgnoreRules.load(root);
  const previous = options.previousFolders && ignoreFilesUnchanged(root, options.previousFolders) ? options.previousFolders : undefined;
  const folders: Record<string, FolderListing> = {};
  const walked: Array<{ folder: string; listing: FolderListing; reused: boolean }> = [];
  let foldersRead = 0;
  const pending: Array<{ folder: string; reuse: boolean }> = [{ folder: '', reuse: previous !== undefined }];
  while (pending.length > 0) {
    options.abortSignal?.throwIfAborted();
    const { folder, reuse } = pending.pop() as { folder: string; reuse: boolean };
    const stats = statSync(`${root}/${folder}`, { throwIfNoEntry: false });
    if (!stats?.isDirectory()) continue;
    const known = reuse ? previous?.[folder] : undefined;
    let listing: FolderListing;
    let reuseBelow = reuse;
    const reused = known !== undefined && known.mtimeMs === stats.mtimeMs;
    if (reused) listing = { ...known, fileStats: [] };
    else {
      listing = await readFolder(root, folder, rules, stats.mtimeMs);
      foldersRead++;
      // New or changed ignore files change what is ignored anywhere below.
      reuseBelow = reuse && sameIgnoreFiles(known?.ignoreFiles ?? [], listing.ignoreFiles);
    }
    folders[folder] = listing;
    walked.push({ folder, listing, reused });
    for (const name of listing.folders) pending.push({ folder: folder === '' ? name : `${folder}/${name}`, reuse: reuseBelow });
  }
  const stated = await statFiles(root, walked, previous, options);
  return { ...stated, rules, folders, foldersRead, unchanged: previous !== undefined && foldersRead === 0 && stated.unchanged };
}

/** One folder's entries, filtered by the ignore rules (of its own ignore files and its ancestors'). */
async function readFolder(root: string, folder: string, rules: IgnoreRules, mtimeMs: number): Promise<FolderListing> {
  // The ancestors may have been reused without loading their rules.
  await loadRulesFor(rules, folder === '' ? '.' : `${folder}/.`);
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, folder), { withFileTypes: true });
  } catch {
    entries = [];
  }
  const listing: FolderListing = { mtimeMs: trustedMtime(mtimeMs), folders: [], files: [], fileStats: [], ignoreFiles: [] };
  for (const entry of entries) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isFile() && ignoreFileNames.includes(entry.name)) {
      const stats = lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
      if (stats) listing.ignoreFiles.push([entry.name, stats.size, stats.mtimeMs]);
    }
    if (entry.isDirectory()) {
      if (!rules.ignores(path, true)) listing.folders.push(entry.name);
    } else if (entry.isFile() && !rules.ignores(path, false)) listing.files.push(entry.name);
  }
  listing.ignoreFiles.sort((left, right) => (left[0] < right[0] ? -1 : 1));
  return listing;
}

function sameIgnoreFiles(left: FolderListing['ignoreFiles'], right: FolderListing['ignoreFiles']): boolean {
  return left.length === right.length && left.every((file, index) => file.join('\0') === right[index]?.join('\0'));
}

/** True when every ignore file of the last scan still has its size and mtime. */
function ignoreFilesUnchanged(root: string, previous: Record<string, FolderListing>): boolean {
  for (const [folder, listing] of Object.entries(previous)) {
    for (const [name, size, mtimeMs] of listing.ignoreFiles) {
      const stats = lstatSync(join(root, folder, name), { throwIfNoEntry: false });
      if (!stats || stats.size !== size || stats.mtimeMs !== mtimeMs) return false;
    }
  }
  return true;
}

/**
 * Stat every listed file (the files of reused folders too: an edit in place shows only there),
 * compare with the previous stats, and record the new ones in each listing.
 */
async function statFiles(
  root: string,
  walked: Array<{ folder: string; listing: FolderListing; reused: boolean }>,
  previous: Record<string, FolderListing> | undefined,
  options: ScanOptions,
): Promise<Pick<ScanResult, 'files' | 'tooLarge' | 'truncated' | 'unchanged'>> {
  const files: ScannedFile[] = [];
  const tooLarge: ScannedFile[] = [];
  let truncated = false;
  let unchanged = true;
  let sinceYield = 0;
  const now = Date.now();
  for (const { folder, listing, reused } of walked) {
    const before = reused ? previous?.[folder]?.fileStats : undefined;
    const kept: string[] = [];
    for (let index = 0; index < listing.files.length && !truncated; index++) {
      if (++sinceYield >= statSlice) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
        options.abortSignal?.throwIfAborted();
      }
      const name = listing.files[index] as string;
      const path = folder === '' ? name : `${folder}/${name}`;
      // Synchronous: one lstat costs a few microseconds, an awaited one ten times that.
      const stats = lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
      if (!stats?.isFile()) {
        unchanged = false;
        continue;
      }
      if (files.length >= options.maxFiles) {
        truncated = true;
        break;
      }
      if (before?.[index * 2] !== stats.size || before[index * 2 + 1] !== stats.mtimeMs) unchanged = false;
      kept.push(name);
      listing.fileStats.push(stats.size, trustedMtime(stats.mtimeMs, now));
      const file = { path, size: stats.size, mtimeMs: stats.mtimeMs };
      if (stats.size > options.maxFileBytes) tooLarge.push(file);
      else files.push(file);
    }
    if (kept.length !== listing.files.length) listing.files = kept;
    options.onFile?.(files.length);
  }
  const byPath = (left: ScannedFile, right: ScannedFile) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
  files.sort(byPath);
  tooLarge.sort(byPath);
  return { files, tooLarge, truncated, unchanged: unchanged && !truncated };
}

/** Load the ignore files of every folder above `path` (for single-file updates). */
export async function loadRulesFor(rules: IgnoreRules, path: string): Promise<void> {
  const segments = path.split('/');
  for (let depth = 0; depth < segments.length; depth++) await rules.loadDirectory(segments.slice(0, depth).join('/'));
}

export type ReadTextResult = { text: string; size: number; mtimeMs: number } | { skipped: 'binary' | 'unreadable' | 'tooLarge' | 'missing' };

/** The file's text if it is text (no NUL byte in its first 8 KiB), else why not. */
export async function readTextFile(absolutePath: string, maxFileBytes: number): Promise<ReadTextResult> {
  let handle: import('node:fs/promises').FileHandle | undefined;
  try {
    // O_NOFOLLOW: a file swapped for a symbolic link after the walk is not read through.
    handle = await open(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stats = await handle.stat();
    if (!stats.isFile()) return { skipped: 'missing' };
    if (stats.size > maxFileBytes) return { skipped: 'tooLarge' };
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) return { skipped: 'binary' };
    return { text: buffer.toString('utf8'), size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Gone (or replaced by a link) since the walk: not a file of the workspace any more.
    return { skipped: code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR' ? 'missing' : 'unreadable' };
  } finally {
    await handle?.close();
  }
}
