import { killTaggedNamespace } from './namespace-tag.js';
import { processTable } from './proc-table.js';

/**
 * True while any process of the group `pgid` is running. A zombie counts for `kill(-pgid, 0)` but
 * is already dead: a PID namespace's init that exited after its parent (bwrap) lingers as one until
 * the machine's init reaps it, which some container inits do late. On Linux those are skipped.
 */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const table = processTable();
  return table.length === 0 || table.some((entry) => entry.group === pgid && entry.state !== 'Z' && entry.state !== 'X');
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * SIGTERM to the whole process group, then SIGKILL once `graceMs` has passed with any member
 * still alive. Background children (`sleep 1000 &`) are in the group, so they die too.
 */
export async function killProcessGroup(pgid: number, graceMs: number): Promise<void> {
  killTaggedNamespace(pgid);
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (isGroupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  // Once bwrap is gone it can fork no namespace any more: one last look for one it forked meanwhile.
  killTaggedNamespace(pgid);
}

/** Synchronous last resort for process exit: SIGKILL, no grace. */
export function killProcessGroupNow(pgid: number): void {
  killTaggedNamespace(pgid);
  signalGroup(pgid, 'SIGKILL');
  killTaggedNamespace(pgid);
}
