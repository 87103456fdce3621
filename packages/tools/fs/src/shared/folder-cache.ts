import { type ChildLookup, ConfinedDirectory } from '@cairn/core/node';

/**
 * Open folders of a walk by their workspace-relative path, each inside its already open parent
 * (O_NOFOLLOW, see ConfinedDirectory.openChild), so a folder swapped for a symlink during the walk
 * is skipped instead of listed. A breadth-first walk reads the children of one folder after the
 * other, so a few recently used handles are enough to find the parent open nearly always; on a
 * miss the folder is walked to from the root. Handles are closed when evicted and by `close()`.
 */
export class FolderCache {
  private readonly open = new Map<string, ConfinedDirectory>();

  constructor(
    private readonly root: string,
    private readonly capacity = 64,
  ) {}

  /** The folder at `relative` (posix, '' = root), or undefined when it is no longer a folder there. */
  async get(relative: string): Promise<ConfinedDirectory | undefined> {
    const cached = this.open.get(relative);
    if (cached) {
      this.touch(relative, cached);
      return cached;
    }
    const slash = relative.lastIndexOf('/');
    const parentPath = slash === -1 ? '' : relative.slice(0, slash);
    const parent = relative === '' ? undefined : this.open.get(parentPath);
    let folder: ConfinedDirectory | undefined;
    if (parent) {
      const lookup = await parent.openChild(relative.slice(slash + 1)).catch(() => undefined);
      folder = lookup?.kind === 'folder' ? lookup.folder : undefined;
    } else {
      folder = await this.walkTo(relative);
    }
    if (folder) await this.remember(relative, folder);
    return folder;
  }

  async close(): Promise<void> {
    const folders = [...this.open.values()];
    this.open.clear();
    for (const folder of folders) await folder.close();
  }

  /** From the root, following no link at all: a walk lists what is there, it never goes through links. */
  private async walkTo(relative: string): Promise<ConfinedDirectory | undefined> {
    let folder: ConfinedDirectory | undefined = await ConfinedDirectory.open(this.root).catch(() => undefined);
    for (const name of relative === '' ? [] : relative.split('/')) {
      if (!folder) return undefined;
      const lookup: ChildLookup | undefined = await folder.openChild(name).catch(() => undefined);
      await folder.close();
      folder = lookup?.kind === 'folder' ? lookup.folder : undefined;
    }
    return folder;
  }

  private touch(relative: string, folder: ConfinedDirectory): void {
    this.open.delete(relative);
    this.open.set(relative, folder);
  }

  private async remember(relative: string, folder: ConfinedDirectory): Promise<void> {
    this.open.set(relative, folder);
    while (this.open.size > this.capacity) {
      const [oldest, handle] = this.open.entries().next().value as [string, ConfinedDirectory];
      this.open.delete(oldest);
      await handle.close();
    }
  }
}
