import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storeLockedError } from './store-errors.js';

// A JSONL store keeps its index in memory, so a second writer would diverge from the first.
// The lock file (pid inside) refuses a second opener; a lock whose process is gone is taken over.
const lockedInThisProcess = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDirectoryLock(dir: string): () => void {
  const path = join(dir, '.lock');
  if (lockedInThisProcess.has(path)) throw storeLockedError(dir, 'another store object of this process');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      lockedInThisProcess.add(path);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        lockedInThisProcess.delete(path);
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      } catch {
        // Removed between our attempt and the read: try again.
      }
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) throw storeLockedError(dir, `process ${holder}`);
      try {
        unlinkSync(path);
      } catch {
        // Someone else removed the stale lock first.
      }
    }
  }
  throw storeLockedError(dir, 'another process (the lock file keeps reappearing)');
}
