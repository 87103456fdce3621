import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let directory: string | undefined;

/**
 * One private folder per process (removed when the process exits) under the OS temp dir for spill files and background logs
 * (mode 0700). Sandboxes bind it read-only so `cat <log>` works inside them too.
 */
export function shellLogDirectory(): string {
  if (!directory) {
    const base = join(tmpdir(), 'cairn-shell');
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const created = mkdtempSync(join(base, `${process.pid}-`));
    directory = created;
    // Spill files and logs are for this agent process only; do not leave tens of MB behind.
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  return directory;
}
