import { lstat, mkdir, readFile, rmdir, unlink, writeFile } from 'node:fs/promises';
import { pathState } from './path-state.js';

/**
 * Placeholders: empty folders and files this process created on the host so a read-only mount can
 * cover a protected path that does not exist (bubblewrap needs a mount point). Concurrent sandboxed
 * commands share one placeholder per path, counted; the last one to finish removes it, and only
 * while it is still exactly what we created (same inode, still empty or still our content).
 */
interface Guard {
  kind: 'dir' | 'file';
  content: string;
  inode: bigint;
  users: number;
}

const guards = new Map<string, Guard>();

// Planning, acquiring and releasing run one at a time. A release that removed a placeholder while
// a concurrent command was planning would leave that command binding a path that just vanished;
// a plan made while another command's placeholder exists must see it as missing, not as a real
// folder (else `.vscode/` made by one command gets `.vscode/tasks.json` placeholders from the next,
// and neither can remove the folder afterwards).
let guardLock: Promise<unknown> = Promise.resolve();
export function underGuardLock<T>(work: () => Promise<T>): Promise<T> {
  const next = guardLock.then(work);
  guardLock = next.catch(() => undefined);
  return next;
}

/** True while `path` is a placeholder some sandboxed command of this process still uses. */
export function isLiveGuard(path: string): boolean {
  return guards.has(path);
}

/** Call under the guard lock. `existing`: something real appeared at the path meanwhile; bind that read-only instead. */
export async function acquireGuard(path: string, kind: 'dir' | 'file', content: string): Promise<'acquired' | 'existing' | 'link'> {
  const guard = guards.get(path);
  if (guard) {
    guard.users++;
    return 'acquired';
  }
  try {
    if (kind === 'dir') await mkdir(path, { mode: 0o755 });
    else await writeFile(path, content, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await pathState(path)) === 'link' ? 'link' : 'existing';
  }
  const inode = (await lstat(path, { bigint: true })).ino;
  guards.set(path, { kind, content, inode, users: 1 });
  return 'acquired';
}

/** Call under the guard lock. */
export async function releaseGuards(paths: string[]): Promise<void> {
  // Deepest first: a placeholder folder can only go once the placeholders inside it are gone.
  for (const path of [...paths].sort((a, b) => b.length - a.length)) {
    const guard = guards.get(path);
    if (!guard) continue;
    guard.users--;
    if (guard.users > 0) continue;
    guards.delete(path);
    try {
      const info = await lstat(path, { bigint: true });
      if (info.ino !== guard.inode) continue;
      if (guard.kind === 'dir') await rmdir(path);
      else if ((await readFile(path, 'utf8')) === guard.content) await unlink(path);
    } catch {
      // Not empty, changed or already gone: something else owns it now; leave it.
    }
  }
}
