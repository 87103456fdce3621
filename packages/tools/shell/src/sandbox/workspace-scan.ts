import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { gitFileTarget, sensitiveFileReason } from '@cairn/core/node';
import { indexGitlinks } from './index-gitlinks.js';

/** A `.git` entry: a repository's git dir, or a `.git` file pointing at one (`gitdir: ...`). */
export interface GitEntry {
  path: string;
  kind: 'dir' | 'file';
  /** `device:inode`, so a replaced entry is told from the one seen before. */
  identity: string;
}

/** What a walk of the workspace found: repositories at any depth and the files that make other tools run code. */
export interface WorkspaceScan {
  root: string;
  gitEntries: GitEntry[];
  /** Absolute path → `inode:size:mtime:ctime` of every sensitive file (package.json, CI workflows, ...). */
  sensitiveFiles: Map<string, string>;
  /** True when the walk stopped at `maxDirectories`: what lies beyond was not seen. */
  truncated: boolean;
  directories: number;
  durationMs: number;
}

export const workspaceScanLimits = {
  /** A workspace of this many folders (node_modules not counted) is walked in well under a second. */
  maxDirectories: 20_000,
};

/**
 * Folders the walk does not enter: the package manager's output (hundreds of thousands of folders;
 * neither git nor editors open repositories in it) and git dirs themselves.
 */
const unwalkedFolders = new Set(['node_modules', '.git']);

export interface WorkspaceScanOptions {
  maxDirectories?: number;
  /** Folders (absolute) to leave out, e.g. the read-only top level of a home folder. */
  skip?: (absoluteFolder: string) => boolean;
  /** Where to start (default: the root itself); a home folder's writable folders. */
  starts?: string[];
}

/**
 * Breadth-first, names sorted, symlinks never followed: two walks of an unchanged tree visit the
 * same folders, so the `.git` entries after a command can be compared with those before it.
 */
export async function scanWorkspace(root: string, options: WorkspaceScanOptions = {}): Promise<WorkspaceScan> {
  const startedAt = Date.now();
  const limit = options.maxDirectories ?? workspaceScanLimits.maxDirectories;
  const scan: WorkspaceScan = { root, gitEntries: [], sensitiveFiles: new Map(), truncated: false, directories: 0, durationMs: 0 };
  let level = [...(options.starts ?? [root])];
  while (level.length > 0) {
    if (scan.directories + level.length > limit) {
      level = level.slice(0, Math.max(0, limit - scan.directories));
      scan.truncated = true;
    }
    scan.directories += level.length;
    const children = await Promise.all(level.map((folder) => visitFolder(root, folder, scan, options.skip)));
    level = scan.truncated ? [] : children.flat();
  }
  await addGitlinkRepositories(scan);
  scan.gitEntries.sort((a, b) => a.path.localeCompare(b.path));
  scan.durationMs = Date.now() - startedAt;
  return scan;
}

async function visitFolder(root: string, folder: string, scan: WorkspaceScan, skip: WorkspaceScanOptions['skip']): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const subfolders: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.name === '.git' && (entry.isDirectory() || entry.isFile())) {
      const identity = await identityOf(path);
      if (identity) scan.gitEntries.push({ path, kind: entry.isDirectory() ? 'dir' : 'file', identity: identity.split(':').slice(0, 2).join(':') });
    } else if (entry.isDirectory()) {
      if (!unwalkedFolders.has(entry.name) && !skip?.(path)) subfolders.push(path);
    } else if (entry.isFile() && sensitiveFileReason(root, path)) {
      const identity = await identityOf(path);
      if (identity) scan.sensitiveFiles.set(path, identity);
    }
  }
  return subfolders;
}

/**
 * Repositories an index lists as submodules, wherever they are (the walk skips node_modules): a
 * plain `git status` of the superproject runs `git status` in each of them.
 */
async function addGitlinkRepositories(scan: WorkspaceScan): Promise<void> {
  const known = new Set(scan.gitEntries.map((entry) => entry.path));
  for (let index = 0; index < scan.gitEntries.length && index < 10_000; index++) {
    const entry = scan.gitEntries[index] as GitEntry;
    const gitDir = entry.kind === 'dir' ? entry.path : gitFileTarget(entry.path);
    if (!gitDir) continue;
    for (const gitlink of await indexGitlinks(gitDir)) {
      const path = join(dirname(entry.path), gitlink, '.git');
      if (known.has(path) || !isInside(scan.root, path)) continue;
      known.add(path);
      const info = await lstat(path, { bigint: true }).catch(() => undefined);
      if (!info || !(info.isDirectory() || info.isFile())) continue;
      scan.gitEntries.push({ path, kind: info.isDirectory() ? 'dir' : 'file', identity: `${info.dev}:${info.ino}` });
    }
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

async function identityOf(path: string): Promise<string | undefined> {
  try {
    const info = await lstat(path, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return undefined;
  }
}
