import { killProcessGroup, killProcessGroupNow } from './kill-group.js';

export interface BackgroundProcess {
  backgroundId: string;
  command: string;
  pgid: number;
  logFile: string;
  startedAt: number;
  runId: string;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  /** Resolves when the process has exited and its group is gone. */
  done: Promise<void>;
}

// The running commands, kept apart from the code that starts them (background-processes.ts, which
// loads child_process): listing and killing them, which the package index exports, costs nothing at import.
const running = new Map<string, BackgroundProcess>();
let exitHookInstalled = false;

/** Keeps `entry` until `forgetBackgroundProcess`; the first one installs the exit hook. */
export function rememberBackgroundProcess(entry: BackgroundProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // The agent's process is going away: take every background group with it.
    process.once('exit', () => {
      for (const started of running.values()) killProcessGroupNow(started.pgid);
    });
  }
  running.set(entry.backgroundId, entry);
}

export function forgetBackgroundProcess(backgroundId: string): void {
  running.delete(backgroundId);
}

/** Background processes still running (optionally of one run). */
export function listBackgroundProcesses(runId?: string): BackgroundProcess[] {
  return [...running.values()].filter((entry) => runId === undefined || entry.runId === runId);
}

/** Kills background groups (all, or one run's) and waits until they are gone. */
export async function killBackgroundProcesses(runId?: string, graceMs = 2000): Promise<void> {
  const entries = listBackgroundProcesses(runId);
  await Promise.all(entries.map(async (entry) => {
    await killProcessGroup(entry.pgid, graceMs);
    await entry.done;
  }));
}
