import { statSync } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type picomatchFactory from 'picomatch';
import { pathRuleMatches } from '../permissions/path-rules.js';
import { lazyRequire } from '../util/lazy-require.js';

const loadPicomatch = lazyRequire<typeof picomatchFactory>('picomatch');

/** What the read deny rules of a run cover. */
export interface ReadDenyScope {
  /** Path globs of the read deny rules as written: `.env*`, `secrets/**`, `/etc/shadow`, `~/.ssh/**`. */
  globs: readonly string[];
  /** Canonical workspace root; relative globs are relative to it. */
  root: string;
  /** The folders `~/` stands for (the agent's HOME and this process's home directory). */
  homes: readonly string[];
}

/** The existing files and folders the read deny rules hide, found on disk. */
export interface DeniedFiles {
  /**
   * Canonical paths of the denied files and folders (a folder hides everything below it), plus
   * the other names (hard links) of denied files found in the workspace.
   */
  paths: string[];
  /** `device:inode` of every denied regular file (also inside denied folders) → its denied path. */
  identities: ReadonlyMap<string, string>;
  /** False when the search stopped at `deniedFilesLimits.maxEntries`: some denied files may be missing. */
  complete: boolean;
}

export const deniedFilesLimits = {
  /** Directory entries looked at in one search, over every glob. */
  maxEntries: 100_000,
};

// A glob without a folder (`.env*`) matches at any depth, but dependency trees and git's object
// store are not where a user's secrets live; a rule that names one of them still searches it.
const skippedFolders = ['node_modules', '.git'];

const identityOf = (info: { dev: number; ino: number }) => `${info.dev}:${info.ino}`;

/** `~/x` becomes `<home>/x` for every home, so each glob is either absolute or workspace-relative. */
export function homeExpandedGlobs(globs: readonly string[], homes: readonly string[]): string[] {
  const expanded = new Set<string>();
  for (const glob of globs) {
    if (glob === '~' || glob.startsWith('~/')) for (const home of homes) expanded.add(home + glob.slice(1));
    else expanded.add(glob);
  }
  return [...expanded];
}

class EntryBudget {
  used = 0;
  get exhausted(): boolean {
    return this.used >= deniedFilesLimits.maxEntries;
  }
}

interface Search {
  budget: EntryBudget;
  denied: Set<string>;
  identities: Map<string, string>;
  /** Some denied file has more than one name: look for the others. */
  linked: boolean;
}

/** Adds a matched path (resolved through symlinks) and the identities of the files it holds. */
async function addDenied(search: Search, path: string): Promise<void> {
  const canonical = await realpath(path).catch(() => undefined);
  if (!canonical || search.denied.has(canonical)) return;
  search.denied.add(canonical);
  await collectIdentities(search, canonical, canonical);
}

async function collectIdentities(search: Search, path: string, deniedPath: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return;
  if (info.isFile()) {
    search.identities.set(identityOf(info), deniedPath);
    if (info.nlink > 1) search.linked = true;
  }
  if (!info.isDirectory()) return;
  for (const name of await readdir(path).catch(() => [] as string[])) {
    if (search.budget.exhausted) return;
    search.budget.used++;
    await collectIdentities(search, join(path, name), deniedPath);
  }
}

/** Walks `folder` (not following symlinked folders) and calls `visit` for every entry below it. */
async function walk(search: Search, folder: string, visit: (path: string, isDirectory: boolean) => Promise<'descend' | 'skip'>, mayEnter: (name: string) => boolean): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (search.budget.exhausted) return;
    search.budget.used++;
    const path = join(folder, entry.name);
    const next = await visit(path, entry.isDirectory());
    if (next === 'descend' && entry.isDirectory() && mayEnter(entry.name)) await walk(search, path, visit, mayEnter);
  }
}

async function searchWorkspace(search: Search, root: string, globs: string[]): Promise<void> {
  const named = (folder: string) => globs.some((glob) => glob.split('/').includes(folder));
  const entered = new Set(skippedFolders.filter(named));
  await walk(
    search,
    root,
    async (path) => {
      if (!globs.some((glob) => pathRuleMatches(glob, path, root))) return 'descend';
      await addDenied(search, path);
      return 'skip';
    },
    (name) => !skippedFolders.includes(name) || entered.has(name),
  );
}

async function searchAbsolute(search: Search, glob: string): Promise<void> {
  const scanned = loadPicomatch().scan(glob);
  if (!scanned.isGlob) {
    await addDenied(search, glob);
    return;
  }
  const base = scanned.base || '/';
  // `~/.ssh/**` matches the folder itself: hide it whole.
  if (pathRuleMatches(glob, base, base)) {
    await addDenied(search, base);
    return;
  }
  await walk(
    search,
    base,
    async (path) => {
      if (!pathRuleMatches(glob, path, base)) return 'descend';
      await addDenied(search, path);
      return 'skip';
    },
    () => true,
  );
}

/** Other names of denied files inside the workspace: hard links share the inode. */
async function searchHardLinks(search: Search, root: string): Promise<void> {
  await walk(
    search,
    root,
    async (path, isDirectory) => {
      if (isDirectory) return search.denied.has(path) ? 'skip' : 'descend';
      const info = await lstat(path).catch(() => undefined);
      if (info?.isFile() && info.nlink > 1 && search.identities.has(identityOf(info))) search.denied.add(path);
      return 'skip';
    },
    (name) => !skippedFolders.includes(name),
  );
}

/**
 * Finds the existing files and folders that the read deny rules hide: relative globs in the
 * workspace (not inside node_modules or .git unless the glob names them), absolute and `~/`
 * globs from their literal base folder, each resolved through symlinks. When a denied file has
 * other names (hard links), those found in the workspace are denied too.
 */
export async function findDeniedFiles(scope: ReadDenyScope): Promise<DeniedFiles> {
  const search: Search = { budget: new EntryBudget(), denied: new Set(), identities: new Map(), linked: false };
  const globs = homeExpandedGlobs(scope.globs, scope.homes);
  const relativeGlobs = globs.filter((glob) => !isAbsolute(glob));
  if (relativeGlobs.length > 0) await searchWorkspace(search, scope.root, relativeGlobs);
  for (const glob of globs.filter((glob) => isAbsolute(glob))) await searchAbsolute(search, glob);
  if (search.linked) await searchHardLinks(search, scope.root);
  return { paths: [...search.denied], identities: search.identities, complete: !search.budget.exhausted };
}

/**
 * When `path` is another name (a hard link) of a denied file, the denied path it shares its inode
 * with; undefined otherwise. Synchronous so discovery tools can call it for every file they list.
 */
export function hardLinkToDeniedFile(path: string, denied: DeniedFiles): string | undefined {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  if (!info.isFile() || info.nlink < 2) return undefined;
  const match = denied.identities.get(identityOf(info));
  if (match !== undefined) return match;
  // The search stopped early: a file with several names may be a link to a denied file it did not reach.
  if (!denied.complete) return `(a denied file the search did not reach: more than ${deniedFilesLimits.maxEntries} entries)`;
  return undefined;
}

export interface DeniedFilesIndex {
  /** A search at most `ttlMs` old (concurrent callers share one search). */
  current(): Promise<DeniedFiles>;
  /** The last search, without touching the disk; undefined before the first one. */
  latest(): DeniedFiles | undefined;
}

const nothingDenied: DeniedFiles = { paths: [], identities: new Map(), complete: true };

/**
 * Caches `findDeniedFiles` for a short time: a turn's parallel tool calls share one search, and a
 * file created a moment later (a new `.env`) is found by the next call after the cache expires.
 */
export function createDeniedFilesIndex(scope: ReadDenyScope, ttlMs = 1000): DeniedFilesIndex {
  let last: { at: number; result: Promise<DeniedFiles> } | undefined;
  let settled: DeniedFiles | undefined;
  if (scope.globs.length === 0) settled = nothingDenied;
  return {
    current() {
      if (scope.globs.length === 0) return Promise.resolve(nothingDenied);
      if (!last || Date.now() - last.at > ttlMs) {
        const result = findDeniedFiles(scope);
        last = { at: Date.now(), result };
        void result.then((found) => {
          settled = found;
        }, () => undefined);
      }
      return last.result;
    },
    latest: () => settled,
  };
}
