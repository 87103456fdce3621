import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreRules } from '@cairn/core/node';

export interface ScannedFile {
  /** Posix path relative to the root. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ScanOptions {
  maxFileBytes: number;
  maxFiles: number;
  abortSignal?: AbortSignal;
  onFile?: (count: number) => void;
}

export interface ScanResult {
  files: ScannedFile[];
  /** Too large, or over the file cap. Binary files are found later, when read. */
  skipped: number;
  truncated: boolean;
  rules: IgnoreRules;
}

/**
 * Walk the workspace top-down with the nested ignore files. Symbolic links are never followed
 * (neither files nor folders), so nothing outside the root is indexed and link loops cannot occur.
 */
export async function scanWorkspace(root: string, options: ScanOptions): Promise<ScanResult> {
  const rules = await IgnoreRules.load(root);
  const files: ScannedFile[] = [];
  let skipped = 0;
  let truncated = false;
  const pending: string[] = [''];
  while (pending.length > 0 && !truncated) {
    options.abortSignal?.throwIfAborted();
    const folder = pending.pop() as string;
    await rules.loadDirectory(folder);
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(root, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!rules.ignores(path, true)) pending.push(path);
        continue;
      }
      if (!entry.isFile() || rules.ignores(path, false)) continue;
      if (files.length >= options.maxFiles) {
        truncated = true;
        break;
      }
      let stats: import('node:fs').Stats;
      try {
        stats = await lstat(join(root, path));
      } catch {
        continue;
      }
      if (stats.size > options.maxFileBytes) {
        skipped++;
        continue;
      }
      files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs });
      if (files.length % 200 === 0) options.onFile?.(files.length);
    }
  }
  files.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  return { files, skipped, truncated, rules };
}

/** Load the ignore files of every folder above `path` (for single-file updates). */
export async function loadRulesFor(rules: IgnoreRules, path: string): Promise<void> {
  const segments = path.split('/');
  for (let depth = 0; depth < segments.length; depth++) await rules.loadDirectory(segments.slice(0, depth).join('/'));
}

/** Text if the file is text (no NUL byte in its first 8 KiB and valid enough UTF-8), else undefined. */
export async function readTextFile(absolutePath: string, maxFileBytes: number): Promise<{ text: string; size: number; mtimeMs: number } | undefined> {
  let handle: import('node:fs/promises').FileHandle | undefined;
  try {
    // O_NOFOLLOW: a file swapped for a symbolic link after the walk is not read through.
    handle = await open(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) return undefined;
    return { text: buffer.toString('utf8'), size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
