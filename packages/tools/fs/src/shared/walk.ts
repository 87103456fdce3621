import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { throwIfAborted } from './abort.js';
import { FolderCache } from './folder-cache.js';

export interface WalkEntry {
  /** Posix path relative to the workspace root. */
  relative: string;
  absolute: string;
  name: string;
  /** Depth below the start folder (its children are 1). */
  depth: number;
  kind: 'file' | 'directory' | 'symlink' | 'other';
}

/** The part of IgnoreRules a walk needs, with paths relative to the walk's root. */
export interface WalkIgnoreRules {
  loadDirectory(relativeDirectory: string): Promise<void>;
  ignores(relativePath: string, isDirectory: boolean): boolean;
}

export interface WalkOptions {
  root: string;
  /** Posix path of the start folder relative to the root ('' = root). */
  start: string;
  rules: WalkIgnoreRules;
  maxDepth: number;
  /** Directory entries looked at before giving up (bounds time on huge trees). */
  maxVisited: number;
  signal?: AbortSignal;
  /** Return false to skip an entry (a folder is then not entered). */
  include?(entry: WalkEntry): boolean;
}

export interface WalkResult {
  entries: WalkEntry[];
  /** True when maxVisited stopped the walk. */
  truncated: boolean;
  /** True when folders below maxDepth were not entered. */
  depthLimited: boolean;
  /**
   * A path naming the entry inside its open folder (valid until `close`): for lstat or readlink of
   * what the walk saw, never through a path whose folders may have changed since.
   */
  pathOf(entry: WalkEntry): Promise<string | undefined>;
  lstat(entry: WalkEntry): Promise<Stats | undefined>;
  /** Close the folders the walk kept open. */
  close(): Promise<void>;
}

function kindOf(dirent: Dirent): WalkEntry['kind'] {
  if (dirent.isSymbolicLink()) return 'symlink';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isFile()) return 'file';
  return 'other';
}

/**
 * Breadth-first walk that never follows symbolic links (so loops and links out of the workspace
 * cannot be entered), prunes ignored folders before reading them (nested ignore files are loaded as
 * the walk reaches each folder) and stops at the depth and entry caps. Each folder is read through
 * a handle opened inside its parent's (FolderCache), so a folder swapped for a link meanwhile is
 * skipped, never listed. The caller closes the result.
 */
export async function walkWorkspace(options: WalkOptions): Promise<WalkResult> {
  const folders = new FolderCache(options.root);
  try {
    const { entries, truncated, depthLimited } = await walkFolders(options, folders);
    const pathOf = async (entry: WalkEntry) => {
      const slash = entry.relative.lastIndexOf('/');
      const folder = await folders.get(slash === -1 ? '' : entry.relative.slice(0, slash));
      return folder?.child(entry.name);
    };
    return {
      entries,
      truncated,
      depthLimited,
      pathOf,
      lstat: async (entry) => {
        const path = await pathOf(entry);
        return path === undefined ? undefined : lstat(path).catch(() => undefined);
      },
      close: () => folders.close(),
    };
  } catch (error) {
    await folders.close();
    throw error;
  }
}

async function walkFolders(options: WalkOptions, folders: FolderCache): Promise<Pick<WalkResult, 'entries' | 'truncated' | 'depthLimited'>> {
  const entries: WalkEntry[] = [];
  let visited = 0;
  let truncated = false;
  let depthLimited = false;
  let queue: Array<{ relative: string; depth: number }> = [{ relative: options.start, depth: 0 }];
  while (queue.length > 0 && !truncated) {
    const next: typeof queue = [];
    for (const folder of queue) {
      throwIfAborted(options.signal);
      await options.rules.loadDirectory(folder.relative);
      const handle = await folders.get(folder.relative);
      // Unreadable, vanished, or swapped for a link since it was listed: skip it.
      const dirents: Dirent[] = handle ? await readdir(handle.path, { withFileTypes: true }).catch(() => []) : [];
      dirents.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
      for (const dirent of dirents) {
        if (++visited > options.maxVisited) {
          truncated = true;
          break;
        }
        const relative = folder.relative === '' ? dirent.name : `${folder.relative}/${dirent.name}`;
        const kind = kindOf(dirent);
        if (options.rules.ignores(relative, kind === 'directory')) continue;
        const entry: WalkEntry = { relative, absolute: join(options.root, relative), name: dirent.name, depth: folder.depth + 1, kind };
        if (options.include && !options.include(entry)) continue;
        entries.push(entry);
        if (kind === 'directory') {
          if (entry.depth < options.maxDepth) next.push({ relative, depth: entry.depth });
          else depthLimited = true;
        }
      }
      if (truncated) break;
    }
    queue = next;
  }
  return { entries, truncated, depthLimited };
}
