import { readdirSync, readFileSync } from 'node:fs';

/**
 * Stdio servers run as leaders of their own process group, so one signal reaches every process a
 * server started (`npx` -> node -> its workers). The live groups are kept here, and one `exit`
 * hook kills what is left when the host exits without closing its agents (an uncaught error, a
 * `process.exit()`): no server outlives the agent process that started it.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export const usesProcessGroups = process.platform !== 'win32';

export function trackProcessGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) signalGroup(group, 'SIGKILL');
  });
}

export function untrackProcessGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

/** True while a process of the group runs. Zombies count for kill(0), so Linux looks in /proc. */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  return groupHasLiveMember(pgid);
}

function groupHasLiveMember(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // `pid (name) state ppid pgrp ...`; the name may hold spaces and parentheses.
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === pgid && state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  });
}

/** SIGTERM to the whole group, SIGKILL to whatever is still alive after `graceMs`. */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (isGroupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  untrackProcessGroup(pgid);
}
