import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { ConfinedDirectory } from './confined-directory.js';
import { defaultIgnoredDirectories } from './ignore-rules.js';

// `.<name>.cairn-<pid in base 36>-<8 hex>.tmp`: the writer's pid tells a crashed write's leftover
// (its process is gone) from a write in progress in another agent process. Names of earlier
// versions (`.<name>.cairn-<12 hex>.tmp`) carry no pid and are judged by age.
const temporaryPattern = /^\..*\.cairn-([0-9a-z]+)-[0-9a-f]{8}\.tmp$/;
const legacyPattern = /^\..*\.cairn-[0-9a-f]{12}\.tmp$/;
const legacyStaleAfterMs = 10 * 60 * 1000;
// Bounds of the one sweep per process and workspace (a huge tree is swept partly, never slowly).
const sweepLimits = { maxVisited: 100_000, maxDepth: 32 };

/** The name of the temp file an atomic write of `name` uses in the same folder. */
export function temporaryFileName(name: string): string {
  // Cut long names so the temp name stays within the usual 255-byte limit.
  return `.${name.slice(0, 180)}.cairn-${process.pid.toString(36)}-${randomBytes(4).toString('hex')}.tmp`;
}

function processIsGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function isStale(folder: ConfinedDirectory, name: string): Promise<boolean> {
  const match = temporaryPattern.exec(name);
  if (match?.[1]) return processIsGone(Number.parseInt(match[1], 36));
  if (!legacyPattern.test(name)) return false;
  const stats = await lstat(folder.child(name)).catch(() => undefined);
  return stats?.isFile() === true && Date.now() - stats.mtimeMs > legacyStaleAfterMs;
}

const swept = new Map<string, Promise<number>>();

/**
 * Remove the temp files that atomic writes of crashed agent processes (kill -9, power loss) left
 * in the workspace; only names of the agent's own pattern whose writer is gone. Runs once per
 * process and workspace root (the first write of a later run does it), confined like every other
 * file operation, skipping the folders no tool walks (.git, node_modules, ...). Resolves to the
 * number of files removed; never throws.
 */
export function sweepStaleTemporaryFiles(root: string): Promise<number> {
  let sweep = swept.get(root);
  if (!sweep) {
    sweep = sweepTree(root).catch(() => 0);
    swept.set(root, sweep);
  }
  return sweep;
}

async function sweepTree(root: string): Promise<number> {
  const skipped = new Set(defaultIgnoredDirectories);
  let visited = 0;
  let removed = 0;
  const visit = async (folder: ConfinedDirectory, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder.path, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++visited > sweepLimits.maxVisited) return;
      if (entry.isFile() && (await isStale(folder, entry.name))) {
        if (await unlink(folder.child(entry.name)).then(() => true, () => false)) removed++;
        continue;
      }
      if (!entry.isDirectory() || skipped.has(entry.name) || depth >= sweepLimits.maxDepth) continue;
      const lookup = await folder.openChild(entry.name).catch(() => undefined);
      if (lookup?.kind !== 'folder') continue;
      try {
        await visit(lookup.folder, depth + 1);
      } finally {
        await lookup.folder.close();
      }
    }
  };
  const start = await ConfinedDirectory.open(root);
  try {
    await visit(start, 0);
  } finally {
    await start.close();
  }
  return removed;
}
