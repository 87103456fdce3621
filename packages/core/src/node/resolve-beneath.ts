import type { Stats } from 'node:fs';
import { lstat, mkdir, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { ConfinedDirectory, ConfinementError, isMissingError } from './confined-directory.js';
import { isInsideRoot } from './inside-root.js';

export interface BeneathOptions {
  /** Follow a symbolic link in the last component (read, write); false for delete. Default true. */
  followLast?: boolean;
  /** Create missing folders on the way (a write into a new folder). */
  createFolders?: boolean;
}

/** Where a walk ended: an open folder and a name in it (the caller closes `folder`). */
export interface BeneathEntry {
  /** The folder holding the entry; for a path naming a folder itself (`name` ''), that folder. */
  folder: ConfinedDirectory;
  /** The entry's name in `folder`; '' when the path is the folder itself (the root, or `src/..`). */
  name: string;
  /** Canonical path relative to the root, posix separators ('' for the root). */
  relative: string;
  /** lstat of the entry as the walk saw it; undefined when it does not exist. */
  stats: Stats | undefined;
  /** False when a folder above the entry is missing too (then `folder` is the deepest existing one). */
  parentExists: boolean;
}

const maxLinkHops = 40;

function components(path: string): string[] {
  return path.split(sep === '/' ? '/' : /[\\/]/).filter((part) => part !== '' && part !== '.');
}

function lstatIfPresent(path: string): Promise<Stats | undefined> {
  return lstat(path).catch((error: unknown) => (isMissingError(error) ? undefined : Promise.reject(error)));
}

/**
 * Resolve `path` (relative to the canonical `root`) one component at a time from an open handle
 * of the root: each folder is opened with O_NOFOLLOW|O_DIRECTORY inside the folder opened before
 * (see ConfinedDirectory), and a symbolic link is followed only after its target was judged to
 * stay below the root. The result holds the last folder open, so the caller's I/O happens in the
 * folder that was checked, even when a name on the way is swapped for a link afterwards: the walk
 * can stop (ConfinementError), but it cannot leave the root. `..` in a link target climbs the
 * folders actually walked; above the root only a way straight back in is accepted.
 */
export async function walkBeneath(root: string, path: string, options: BeneathOptions = {}): Promise<BeneathEntry> {
  const followLast = options.followLast ?? true;
  const pending = components(path);
  const folders: ConfinedDirectory[] = [await ConfinedDirectory.open(root)];
  const names: string[] = [];
  let hops = 0;
  const top = () => folders[folders.length - 1] as ConfinedDirectory;
  const climbTo = async (depth: number) => {
    while (folders.length > depth) await folders.pop()?.close();
    names.length = depth - 1;
  };
  const follow = async (target: string) => {
    if (++hops > maxLinkHops) throw new ConfinementError('too many levels of symbolic links', 'loop');
    if (!isAbsolute(target)) {
      pending.unshift(...components(target));
      return;
    }
    const normalized = normalize(target);
    if (!isInsideRoot(root, normalized)) throw new ConfinementError(`a symbolic link leads to ${normalized}`, 'outside', normalized);
    await climbTo(1);
    pending.unshift(...components(relative(root, normalized)));
  };
  try {
    while (pending.length > 0) {
      const name = pending.shift() as string;
      if (name === '..') {
        if (folders.length > 1) {
          await climbTo(folders.length - 1);
          continue;
        }
        // At the root: `../proj/src` from the root `proj` comes straight back; anything else leaves.
        const back = resolve(dirname(root), ...pending);
        if (!isInsideRoot(root, back)) throw new ConfinementError(`a symbolic link leads to ${back}`, 'outside', back);
        pending.splice(0, pending.length, ...components(relative(root, back)));
        continue;
      }
      const folder = top();
      if (pending.length === 0) {
        const stats = await lstatIfPresent(folder.child(name));
        if (stats?.isSymbolicLink() && followLast) {
          const target = await readlink(folder.child(name)).catch(() => undefined);
          // Swapped for something else since the lstat: look at the name again (hops bound it).
          if (target === undefined) {
            if (++hops > maxLinkHops) throw new ConfinementError(`${name} keeps changing while being opened`, 'changed');
            pending.unshift(name);
          } else await follow(target);
          continue;
        }
        return { folder: folders.pop() as ConfinedDirectory, name, relative: [...names, name].join('/'), stats, parentExists: true };
      }
      const lookup = await folder.openChild(name);
      if (lookup.kind === 'folder') {
        folders.push(lookup.folder);
        names.push(name);
      } else if (lookup.kind === 'symlink') {
        await follow(lookup.target);
      } else if (lookup.kind === 'other') {
        throw new ConfinementError(`${[...names, name].join('/')} is not a folder`, 'not-folder');
      } else if (options.createFolders) {
        await mkdir(folder.child(name)).catch((error: unknown) => ((error as NodeJS.ErrnoException).code === 'EEXIST' ? undefined : Promise.reject(error)));
        if (++hops > maxLinkHops * 4) throw new ConfinementError(`${name} keeps disappearing while being created`, 'changed');
        pending.unshift(name);
      } else {
        // A missing folder: nothing below it exists, so the rest is only a name (checked to stay inside).
        const rest = normalize([...names, name, ...pending].join('/'));
        if (rest === '..' || rest.startsWith(`..${sep}`) || rest.startsWith('../')) {
          throw new ConfinementError(`the path leads to ${resolve(root, rest)}`, 'outside', resolve(root, rest));
        }
        const restNames = components(rest);
        return { folder: folders.pop() as ConfinedDirectory, name: restNames[restNames.length - 1] ?? '', relative: restNames.join('/'), stats: undefined, parentExists: false };
      }
    }
    const folder = folders.pop() as ConfinedDirectory;
    return { folder, name: '', relative: names.join('/'), stats: await folder.stat(), parentExists: true };
  } finally {
    for (const folder of folders) await folder.close();
  }
}
