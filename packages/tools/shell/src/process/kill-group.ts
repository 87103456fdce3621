/** True while any process of the group `pgid` exists. */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  if (isGroupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
}

/** Synchronous last resort for process exit: SIGKILL, no grace. */
export function killProcessGroupNow(pgid: number): void {
  signalGroup(pgid, 'SIGKILL');
}
