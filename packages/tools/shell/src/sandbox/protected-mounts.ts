import { ToolError } from '@cairn/core';
import { isAbsolute, join, relative, sep } from 'node:path';
import { acquireGuard, isLiveGuard, releaseGuards, underGuardLock } from './placeholder-guards.js';
import type { ProtectedEntry } from './protected-entries.js';
import { pathState } from './path-state.js';

export interface ProtectedMounts {
  args: string[];
  release(): Promise<void>;
}

interface PlannedMount {
  path: string;
  how: 'immovable' | 'read-only' | 'placeholder';
  kind: 'dir' | 'file';
  placeholderContent?: string;
}

function segmentsBelow(area: string, path: string): string[] | undefined {
  const rel = relative(area, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}

function symlinkRefusal(path: string, area: string): ToolError {
  const shown = relative(area, path) || path;
  return new ToolError(
    `The workspace-write sandbox cannot protect ${shown}: it is a symbolic link, and a command could replace the link with a folder of its own. ` +
      'Ask the user to replace the link with what it points to (for hooks: git config core.hooksPath <folder>), or run the command without the sandbox.',
  );
}

/**
 * How to keep one entry: walk its path down from the writable area. Every folder on the way
 * becomes immovable (a mount point cannot be renamed: EBUSY), so no parent can be renamed away
 * with the entry's mounts and replaced. A symbolic link on the way is refused. When the path
 * stops existing at some folder, that first missing name is guarded (a placeholder), because
 * bubblewrap would otherwise create the folders between as plain, renamable ones.
 */
async function planEntry(entry: ProtectedEntry, area: string, planned: PlannedMount[]): Promise<void> {
  const segments = segmentsBelow(area, entry.path);
  if (!segments) return;
  let current = area;
  const ancestors: string[] = [];
  for (const [index, segment] of segments.entries()) {
    current = join(current, segment);
    const isEntry = index === segments.length - 1;
    const state = isLiveGuard(current) ? 'missing' : await pathState(current);
    if (state === 'link') throw symlinkRefusal(current, area);
    if (state === 'other') return;
    if (state === 'missing') {
      if (entry.whenMissing === 'ignore') return;
      const placeholder: PlannedMount = { path: current, how: 'placeholder', kind: isEntry ? entry.kind : 'dir' };
      if (isEntry && entry.placeholderContent !== undefined) placeholder.placeholderContent = entry.placeholderContent;
      planned.push(placeholder, ...ancestors.map((path): PlannedMount => ({ path, how: 'immovable', kind: 'dir' })));
      return;
    }
    if (!isEntry) {
      if (state !== 'dir') return;
      ancestors.push(current);
    } else {
      if ((state === 'dir') !== (entry.kind === 'dir') && entry.access === 'immovable') return;
      planned.push({ path: current, how: entry.access === 'immovable' && state === 'dir' ? 'immovable' : 'read-only', kind: state === 'dir' ? 'dir' : 'file' });
      planned.push(...ancestors.map((path): PlannedMount => ({ path, how: 'immovable', kind: 'dir' })));
    }
  }
}

/** One mount per path (read-only and placeholders win over immovable), none inside a read-only one, parents first. */
function mergePlan(planned: PlannedMount[]): PlannedMount[] {
  const byPath = new Map<string, PlannedMount>();
  for (const mount of planned) {
    const known = byPath.get(mount.path);
    if (!known || known.how === 'immovable') byPath.set(mount.path, mount);
  }
  const sealed = [...byPath.values()].filter((mount) => mount.how !== 'immovable').map((mount) => mount.path);
  const merged = [...byPath.values()].filter((mount) => !sealed.some((outer) => outer !== mount.path && segmentsBelow(outer, mount.path)));
  const depth = (path: string) => path.split(sep).length;
  // Immovable folders first: a read-only mount must never be followed by a writable one inside it.
  return merged.sort((a, b) => Number(a.how !== 'immovable') - Number(b.how !== 'immovable') || depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
}

/**
 * The bubblewrap arguments that keep `entries` (protected-entries.ts) inside the writable `areas`,
 * after those areas are bound writable. Placeholders for missing paths are created on the host
 * (bubblewrap needs a mount point) and removed by `release` once no sandboxed command uses them.
 */
export function protectedMounts(areas: string[], entries: ProtectedEntry[]): Promise<ProtectedMounts> {
  return underGuardLock(async () => {
    const planned: PlannedMount[] = [];
    for (const entry of entries) {
      const area = areas.find((candidate) => segmentsBelow(candidate, entry.path));
      if (area) await planEntry(entry, area, planned);
    }
    const args: string[] = [];
    const acquired: string[] = [];
    try {
      for (const mount of mergePlan(planned)) {
        if (mount.how === 'immovable') args.push('--bind', mount.path, mount.path);
        else if (mount.how === 'read-only') args.push('--ro-bind', mount.path, mount.path);
        else {
          const guarded = await acquireGuard(mount.path, mount.kind, mount.placeholderContent ?? '');
          if (guarded === 'link') throw symlinkRefusal(mount.path, areas[0] ?? mount.path);
          if (guarded === 'acquired') acquired.push(mount.path);
          args.push('--ro-bind', mount.path, mount.path);
        }
      }
    } catch (error) {
      await releaseGuards(acquired);
      throw error;
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
  });
}
