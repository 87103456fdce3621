import { readdir, readFile } from 'node:fs/promises';

/** Pids of this machine's processes whose command line is exactly `argv`. */
export async function processesRunning(argv: string[]): Promise<number[]> {
  const wanted = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (commandLine === wanted) pids.push(Number(entry));
  }
  return pids;
}

/** Resolves once `check` is true, polling; fails after `timeoutMs` with `what`. */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolvePause) => setTimeout(resolvePause, 100));
  }
}
