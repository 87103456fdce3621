import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, readlink, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Node has no openat(2). On Linux, `/proc/self/fd/N` names the folder an open descriptor holds, and
 * a path that goes on below it (`/proc/self/fd/N/name`) is looked up in that very folder, whatever
 * happened to the names above it since it was opened: the kernel follows the descriptor, not a
 * path string. That gives openat semantics to every fs call (open, mkdir, rename, unlink, lstat,
 * readdir) without a native addon. Probed once: /proc may be missing (other systems, odd
 * containers); then the folder's canonical path stands in and is re-checked before each change,
 * which narrows the race but cannot close it.
 */
let probe: Promise<boolean> | undefined;

export function descriptorPathsWork(): Promise<boolean> {
  probe ??= (async () => {
    if (process.platform !== 'linux') return false;
    try {
      const handle = await open('/', constants.O_RDONLY | constants.O_DIRECTORY);
      try {
        const [held, named] = await Promise.all([handle.stat(), stat(`/proc/self/fd/${handle.fd}/.`)]);
        return held.ino === named.ino && held.dev === named.dev;
      } finally {
        await handle.close();
      }
    } catch {
      return false;
    }
  })();
  return probe;
}

const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | (constants.O_NOFOLLOW ?? 0);

/** What a name in a folder turned out to be when it was opened as a folder without following links. */
export type ChildLookup =
  | { kind: 'folder'; folder: ConfinedDirectory }
  | { kind: 'symlink'; target: string }
  | { kind: 'missing' }
  | { kind: 'other'; stats: Stats };

/**
 * Why a confined walk stopped: the path leads `outside` the root (`target` says where), a folder on
 * it `changed` while it was being opened, links `loop`, or a name on the way is `not-folder`.
 */
export class ConfinementError extends Error {
  constructor(
    message: string,
    readonly reason: 'outside' | 'changed' | 'loop' | 'not-folder',
    readonly target?: string,
  ) {
    super(message);
    this.name = 'ConfinementError';
  }
}

export function isMissingError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * An open folder. `child(name)` is a path naming `name` inside this very folder, to hand to any fs
 * call; `absolute` is where the folder was (canonically) when it was opened. Close it when done.
 */
export class ConfinedDirectory {
  private constructor(
    private readonly handle: FileHandle,
    /** Canonical absolute path of the folder when it was opened. */
    readonly absolute: string,
    private readonly viaDescriptor: boolean,
  ) {}

  /** Open a canonical folder (a workspace root) as the start of a confined walk. */
  static async open(absolute: string): Promise<ConfinedDirectory> {
    const handle = await open(absolute, constants.O_RDONLY | constants.O_DIRECTORY);
    return new ConfinedDirectory(handle, absolute, await descriptorPathsWork());
  }

  /** A path that names this folder itself for fs calls (readdir, fsync through open). */
  get path(): string {
    return this.viaDescriptor ? `/proc/self/fd/${this.handle.fd}` : this.absolute;
  }

  /** True when `path` really stays on this folder (Linux); false when it is only its last known name. */
  get raceFree(): boolean {
    return this.viaDescriptor;
  }

  child(name: string): string {
    return this.viaDescriptor ? `${this.path}/${name}` : join(this.absolute, name);
  }

  stat(): Promise<Stats> {
    return this.handle.stat();
  }

  /**
   * Open `name` as a folder without following a link in it; a link is reported with its target so
   * the caller can judge where it leads before following it.
   */
  async openChild(name: string): Promise<ChildLookup> {
    const path = this.child(name);
    let handle: FileHandle;
    try {
      handle = await open(path, folderFlags);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
      const stats = await lstat(path).catch((lstatError: unknown) => (isMissingError(lstatError) ? undefined : Promise.reject(lstatError)));
      if (!stats) return { kind: 'missing' };
      if (!stats.isSymbolicLink()) return { kind: 'other', stats };
      try {
        return { kind: 'symlink', target: await readlink(path) };
      } catch (readError) {
        // Replaced by something else in between: the caller looks again.
        if ((readError as NodeJS.ErrnoException).code === 'EINVAL' || isMissingError(readError)) return { kind: 'missing' };
        throw readError;
      }
    }
    const folder = new ConfinedDirectory(handle, join(this.absolute, name), this.viaDescriptor);
    if (!this.viaDescriptor && (await realpath(folder.absolute).catch(() => undefined)) !== folder.absolute) {
      await folder.close();
      throw new ConfinementError(`${folder.absolute} changed while it was being opened`, 'changed');
    }
    return { kind: 'folder', folder };
  }

  /** Where the folder is now (the kernel's name for the descriptor), or undefined when it was removed. */
  async currentLocation(): Promise<string | undefined> {
    if (!this.viaDescriptor) return realpath(this.absolute).catch(() => undefined);
    const location = await readlink(this.path).catch(() => undefined);
    return location === undefined || location.endsWith(' (deleted)') ? undefined : location;
  }

  /** Make renames and new names in this folder durable (best effort: not every platform can). */
  async sync(): Promise<void> {
    await this.handle.sync().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}
