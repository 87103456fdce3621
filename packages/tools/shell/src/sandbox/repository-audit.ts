import { rename } from 'node:fs/promises';
import { isLiveGuard, underGuardLock } from './placeholder-guards.js';
import { pathState } from './path-state.js';
import type { WorkspaceScan } from './workspace-scan.js';

/** Something a sandboxed command left that the host must not obey; it has been made harmless. */
export interface QuarantinedRepository {
  /** The `.git` entry as the command left it (absolute). */
  path: string;
  /** Where it is now. */
  movedTo: string;
}

async function freeName(path: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const candidate = `${path}.cairn-quarantined${attempt === 1 ? '' : `-${attempt}`}`;
    if ((await pathState(candidate)) === 'missing') return candidate;
  }
}

/**
 * After a sandboxed command: a `.git` entry that was not there before it (a `git init`, a hand-made
 * repository, a `.git` file pointing anywhere) would let the command plant config and hooks that
 * the next plain `git status` on the host runs — in that folder, in the superproject once the
 * index lists it, or in an editor that opens it. Mounts cannot stop a new name being created, so
 * it is renamed away now, when nothing of the sandbox runs any more. Placeholders of commands still
 * running are not new repositories.
 */
export function quarantineNewRepositories(before: WorkspaceScan, after: WorkspaceScan): Promise<QuarantinedRepository[]> {
  return underGuardLock(async () => {
    const known = new Set(before.gitEntries.map((entry) => `${entry.path}\0${entry.identity}`));
    const quarantined: QuarantinedRepository[] = [];
    for (const entry of after.gitEntries) {
      if (known.has(`${entry.path}\0${entry.identity}`) || isLiveGuard(entry.path)) continue;
      const movedTo = await freeName(entry.path);
      try {
        await rename(entry.path, movedTo);
        quarantined.push({ path: entry.path, movedTo });
      } catch {
        // Gone already: nothing left to obey.
      }
    }
    return quarantined;
  });
}
