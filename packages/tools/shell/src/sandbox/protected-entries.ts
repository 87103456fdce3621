import { existsSync, readdirSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  configuredHooksPath, conventionalHookFolders, editorConfigFiles, editorConfigFolders, enclosingRepository, gitCommonDir, gitFileTarget, lastGitConfigValue,
  readRepositoryConfig,
  shellStartupFiles,
} from '@cairn/core/node';
import type { WorkspaceScan } from './workspace-scan.js';

/**
 * A path of the workspace that the host's tools run or obey later, and how the sandbox keeps it:
 * `read-only` (bound read-only) or `immovable` (bound onto itself, still writable, but a mount
 * point cannot be renamed, replaced or removed: a `.git` folder whose objects and refs git must
 * write, and every folder on the way to a protected entry, so no parent can be renamed away).
 */
export interface ProtectedEntry {
  path: string;
  kind: 'dir' | 'file';
  access: 'read-only' | 'immovable';
  /** When the path does not exist: `guard` = an empty read-only placeholder keeps it from being created. */
  whenMissing: 'guard' | 'ignore';
  /** Content of a file placeholder: `.git/commondir` must read `.` (the git dir itself), an empty one breaks git. */
  placeholderContent?: string;
}

const rootOnlyFolders = ['.cairn', '.cursor'];
const gitConfigFiles = ['.gitmodules', '.gitconfig'];

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** What git runs or reads from a git dir: config, hooks, where its common dir is, its worktrees and submodules. */
function gitDirEntries(gitDir: string, workTree: string, root: string, seen: Set<string>): ProtectedEntry[] {
  if (seen.has(gitDir)) return [];
  seen.add(gitDir);
  const config = readRepositoryConfig(gitDir);
  const worktreeConfig = /^(true|yes|on|1)$/i.test(lastGitConfigValue(config.entries, 'extensions', 'worktreeconfig') ?? '');
  const entries: ProtectedEntry[] = [
    { path: gitDir, kind: 'dir', access: 'immovable', whenMissing: 'guard' },
    { path: join(gitDir, 'config'), kind: 'file', access: 'read-only', whenMissing: 'guard' },
    { path: join(gitDir, 'hooks'), kind: 'dir', access: 'read-only', whenMissing: 'guard' },
    { path: join(gitDir, 'commondir'), kind: 'file', access: 'read-only', whenMissing: 'guard', placeholderContent: '.\n' },
    { path: join(gitDir, 'config.worktree'), kind: 'file', access: 'read-only', whenMissing: worktreeConfig ? 'guard' : 'ignore' },
    { path: join(gitDir, 'info'), kind: 'dir', access: 'read-only', whenMissing: 'ignore' },
    // `git submodule update --init` on the host reuses a git dir it finds in modules/: one planted there would run.
    { path: join(gitDir, 'modules'), kind: 'dir', access: 'read-only', whenMissing: 'guard' },
    { path: join(gitDir, 'worktrees'), kind: 'dir', access: 'read-only', whenMissing: 'guard' },
  ];
  const hooksPath = configuredHooksPath(config, workTree);
  // `core.hooksPath = .` would make the work tree the hooks folder; then only the hook files that exist are kept.
  if (hooksPath && hooksPath !== workTree && isInside(root, hooksPath)) entries.push({ path: hooksPath, kind: 'dir', access: 'read-only', whenMissing: 'guard' });
  for (const file of config.includes) if (isInside(root, file)) entries.push({ path: file, kind: 'file', access: 'read-only', whenMissing: 'guard' });
  // A linked worktree's git dir takes config and hooks from its common dir.
  const commonDir = gitCommonDir(gitDir);
  if (commonDir !== gitDir && isInside(root, commonDir)) entries.push(...gitDirEntries(commonDir, workTree, root, seen));
  return entries;
}

/** Files of a project folder (the workspace root or a nested repository's work tree) that editors and shells run. */
function projectEntries(folder: string, isWorkspaceRoot: boolean): ProtectedEntry[] {
  const whenMissing = isWorkspaceRoot ? 'guard' : 'ignore';
  const entries: ProtectedEntry[] = [
    ...editorConfigFolders.map((name): ProtectedEntry => ({ path: join(folder, name), kind: 'dir', access: 'read-only', whenMissing })),
    ...editorConfigFiles.map((name): ProtectedEntry => ({ path: join(folder, name), kind: 'file', access: 'read-only', whenMissing })),
    ...conventionalHookFolders.map((name): ProtectedEntry => ({ path: join(folder, name), kind: 'dir', access: 'read-only', whenMissing: 'ignore' })),
    ...gitConfigFiles.map((name): ProtectedEntry => ({ path: join(folder, name), kind: 'file', access: 'read-only', whenMissing: 'ignore' })),
    { path: join(folder, '.envrc'), kind: 'file', access: 'read-only', whenMissing },
  ];
  try {
    // `*.code-workspace` files hold tasks and settings like `.vscode/`; their names are free, so only existing ones.
    for (const name of readdirSync(folder)) if (name.endsWith('.code-workspace')) entries.push({ path: join(folder, name), kind: 'file', access: 'read-only', whenMissing: 'ignore' });
  } catch {
    // an unreadable folder has nothing to protect
  }
  if (!isWorkspaceRoot) return entries;
  entries.push(...rootOnlyFolders.map((name): ProtectedEntry => ({ path: join(folder, name), kind: 'dir', access: 'read-only', whenMissing: 'guard' })));
  // Start-up files matter when the workspace is a home folder; that case keeps the whole top level read-only (home-folder.ts).
  for (const name of shellStartupFiles) if (name !== '.envrc') entries.push({ path: join(folder, name), kind: 'file', access: 'read-only', whenMissing: 'ignore' });
  return entries;
}

/**
 * Folders on the host's PATH that lie in the workspace: a program planted there runs instead of the
 * real one. Not `node_modules/.bin` (an agent started by `npm run` has it on PATH): the package
 * manager writes it, and the packages it links to are writable anyway.
 */
function pathFolderEntries(root: string, searchPaths: Array<string | undefined>): ProtectedEntry[] {
  const folders = new Set(searchPaths.flatMap((value) => (value ?? '').split(delimiter)).filter((folder) => isAbsolute(folder)).map((folder) => resolve(folder)));
  return [...folders]
    .filter((folder) => isInside(root, folder) && !folder.split(sep).includes('node_modules'))
    .map((path) => ({ path, kind: 'dir', access: 'read-only', whenMissing: 'guard' }));
}

/**
 * Everything the sandbox must keep for one workspace: the root repository (its `.git` existing or
 * not), every nested repository and `.git` file the scan found, the project files of the root and
 * of each nested work tree, and PATH folders inside the workspace. Entries may repeat; the mount
 * planner merges them (read-only wins, guard wins).
 */
export function protectedEntries(root: string, scan: WorkspaceScan, searchPaths: Array<string | undefined>): ProtectedEntry[] {
  const seen = new Set<string>();
  const entries: ProtectedEntry[] = [];
  const rootGit = join(root, '.git');
  const rootGitEntry = scan.gitEntries.find((entry) => entry.path === rootGit);
  // A missing `.git` could be `git init`-ed with hooks: guard it (a `git init` in the sandbox fails, by design).
  if (!rootGitEntry) entries.push({ path: rootGit, kind: 'dir', access: 'read-only', whenMissing: 'guard' });
  if (rootGitEntry?.kind !== 'file' && !existsSync(join(rootGit, 'HEAD'))) {
    // A workspace inside a repository: that repository's hooks folder or included config may lie in the workspace.
    const enclosing = enclosingRepository(dirname(root));
    if (enclosing) entries.push(...gitDirEntries(enclosing.gitDir, enclosing.workTree, root, seen));
  }
  for (const gitEntry of scan.gitEntries) {
    const workTree = dirname(gitEntry.path);
    if (gitEntry.kind === 'dir') entries.push(...gitDirEntries(gitEntry.path, workTree, root, seen));
    else {
      entries.push({ path: gitEntry.path, kind: 'file', access: 'read-only', whenMissing: 'ignore' });
      const target = gitFileTarget(gitEntry.path);
      if (target && isInside(root, target)) entries.push(...gitDirEntries(target, workTree, root, seen));
    }
    if (workTree !== root) entries.push(...projectEntries(workTree, false));
  }
  entries.push(...projectEntries(root, true), ...pathFolderEntries(root, searchPaths));
  return entries;
}
