import { readdir, readFile } from 'node:fs/promises';

/** Processes whose command line contains the marker, as `pid: command line` (host view of /proc, so sandboxed ones too). */
export async function processesWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim();
    if (commandLine.includes(marker)) found.push(`${pid}: ${commandLine}`);
  }
  return found;
}
