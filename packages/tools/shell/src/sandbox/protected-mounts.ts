import { lstat, readFile, rmdir, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Paths inside the workspace that stay read-only in the `workspace-write` sandbox: what git, the
 * agent or the editor would later run (hooks, git config, agent and editor configuration, direnv).
 * Existing ones are re-bound read-only. Missing ones are covered by an empty read-only mount, so a
 * command cannot create them either; bubblewrap has to create the mount point on the host, and
 * `release` removes it again (only if still empty) once no sandboxed command needs it.
 */
interface ProtectedEntry {
  path: string;
  kind: 'dir' | 'file';
  /** Guard the path when it does not exist yet. */
  guardWhenMissing: boolean;
}

const rootStartupFiles = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.envrc', '.gitmodules', '.gitconfig'];

async function pathKind(path: string): Promise<'dir' | 'file' | 'missing'> {
  try {
    const info = await lstat(path);
    return info.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

async function protectedEntries(root: string): Promise<ProtectedEntry[]> {
  const entries: ProtectedEntry[] = [];
  const git = join(root, '.git');
  const gitKind = await pathKind(git);
  if (gitKind === 'dir') {
    entries.push({ path: join(git, 'hooks'), kind: 'dir', guardWhenMissing: true }, { path: join(git, 'config'), kind: 'file', guardWhenMissing: true });
    entries.push({ path: join(git, 'info'), kind: 'dir', guardWhenMissing: false });
    // `core.hooksPath = .husky` moves the hooks into the work tree: protect that folder too.
    const hooksPath = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(await readFile(join(git, 'config'), 'utf8').catch(() => ''))?.[1]?.replace(/^"|"$/g, '');
    if (hooksPath) {
      const absolute = resolve(root, hooksPath);
      const rel = relative(root, absolute);
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) entries.push({ path: absolute, kind: 'dir', guardWhenMissing: true });
    }
  } else {
    // A `.git` file (worktree) could be pointed at another git dir; a missing one could be `git init`-ed with hooks.
    entries.push({ path: git, kind: gitKind === 'file' ? 'file' : 'dir', guardWhenMissing: true });
  }
  entries.push({ path: join(root, '.cairn'), kind: 'dir', guardWhenMissing: true }, { path: join(root, '.cursor'), kind: 'dir', guardWhenMissing: true });
  if ((await pathKind(join(root, '.vscode'))) === 'dir') {
    for (const name of ['settings.json', 'tasks.json', 'launch.json']) entries.push({ path: join(root, '.vscode', name), kind: 'file', guardWhenMissing: true });
  } else entries.push({ path: join(root, '.vscode'), kind: 'dir', guardWhenMissing: true });
  for (const name of rootStartupFiles) entries.push({ path: join(root, name), kind: 'file', guardWhenMissing: name === '.envrc' });
  return entries;
}

// Mount points we created on the host, shared by concurrent sandboxed commands.
const guards = new Map<string, { kind: 'dir' | 'file'; users: number }>();

export interface ProtectedMounts {
  args: string[];
  release(): Promise<void>;
}

// Acquiring and releasing guards run one at a time: a release that removes a mount point while a
// concurrent acquire inspects it would leave that command binding onto a path that just vanished.
let guardLock: Promise<unknown> = Promise.resolve();
function underGuardLock<T>(work: () => Promise<T>): Promise<T> {
  const next = guardLock.then(work);
  guardLock = next.catch(() => undefined);
  return next;
}

export function protectedMounts(root: string): Promise<ProtectedMounts> {
  return underGuardLock(() => acquireProtectedMounts(root));
}

async function acquireProtectedMounts(root: string): Promise<ProtectedMounts> {
  const args: string[] = [];
  const acquired: string[] = [];
  for (const entry of await protectedEntries(root)) {
    const guard = guards.get(entry.path);
    const kind = guard ? 'missing' : await pathKind(entry.path);
    if (kind !== 'missing') {
      args.push('--ro-bind', entry.path, entry.path);
      continue;
    }
    if (!entry.guardWhenMissing) continue;
    if (guard) guard.users++;
    else guards.set(entry.path, { kind: entry.kind, users: 1 });
    acquired.push(entry.path);
    if (entry.kind === 'dir') args.push('--tmpfs', entry.path, '--remount-ro', entry.path);
    else args.push('--ro-bind', '/dev/null', entry.path);
  }
  let released = false;
  return {
    args,
    release() {
      if (released) return Promise.resolve();
      released = true;
      return underGuardLock(() => releaseGuards(acquired));
    },
  };
}

async function releaseGuards(acquired: string[]): Promise<void> {
  for (const path of acquired) {
    const guard = guards.get(path);
    if (!guard) continue;
    guard.users--;
    if (guard.users > 0) continue;
    guards.delete(path);
    try {
      if (guard.kind === 'dir') await rmdir(path);
      else if ((await stat(path)).size === 0) await unlink(path);
    } catch {
      // Not empty or already gone: something else owns it now; leave it.
    }
  }
}
