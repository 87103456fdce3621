import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let directory: string | undefined;

/**
 * A folder of this user under the OS temp dir, or undefined when the name is taken by something
 * else (another user's folder, a symlink planted in a shared /tmp).
 */
function userBase(): string | undefined {
  const uid = process.getuid?.();
  const base = join(tmpdir(), uid === undefined ? 'cairn-shell' : `cairn-shell-${uid}`);
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const info = lstatSync(base);
    return info.isDirectory() && (uid === undefined || info.uid === uid) ? base : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One private folder per process (removed when the process exits) under the OS temp dir for spill files and background logs
 * (mode 0700). Sandboxes bind it read-only so `cat <log>` works inside them too.
 */
export function shellLogDirectory(): string {
  if (!directory) {
    const base = userBase();
    const created = base ? mkdtempSync(join(base, `${process.pid}-`)) : mkdtempSync(join(tmpdir(), `cairn-shell-${process.pid}-`));
    directory = created;
    // Spill files and logs are for this agent process only; do not leave tens of MB behind.
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  return directory;
}
