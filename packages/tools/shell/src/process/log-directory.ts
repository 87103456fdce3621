import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let directory: string | undefined;

/**
 * One private folder per process under the OS temp dir for spill files and background logs
 * (mode 0700). Sandboxes bind it read-only so `cat <log>` works inside them too.
 */
export function shellLogDirectory(): string {
  if (!directory) {
    const base = join(tmpdir(), 'cairn-shell');
    mkdirSync(base, { recursive: true, mode: 0o700 });
    directory = mkdtempSync(join(base, `${process.pid}-`));
  }
  return directory;
}
