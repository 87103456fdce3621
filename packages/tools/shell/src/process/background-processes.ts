import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { type BackgroundProcess, forgetBackgroundProcess, rememberBackgroundProcess } from './background-registry.js';
import { isGroupAlive, killProcessGroup } from './kill-group.js';
import { forgetTag, rememberTag, tagLaunch } from './namespace-tag.js';
import { shellLogDirectory } from './log-directory.js';

let counter = 0;

export interface StartBackgroundOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  command: string;
  runId: string;
  signal: AbortSignal;
  killGraceMs: number;
  /** Called after the group is gone (sandbox cleanup). */
  onDone?(): Promise<void> | void;
}

/**
 * Starts a command in its own process group with stdout and stderr appended to a log file, and
 * returns at once. The group is killed when `signal` aborts (cancel or end of the run) and when
 * this process exits, so a background server never outlives the agent that started it.
 */
export function startBackgroundProcess(options: StartBackgroundOptions): Promise<BackgroundProcess> {
  const backgroundId = `bg-${process.pid}-${++counter}`;
  const logFile = join(shellLogDirectory(), `${backgroundId}.log`);
  const descriptor = openSync(logFile, 'a', 0o600);
  return new Promise((resolve, reject) => {
    const launch = tagLaunch(options.file, options.args);
    const child = spawn(options.file, launch.args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', descriptor, descriptor] });
    closeSync(descriptor);
    child.once('error', reject);
    child.once('spawn', () => {
      const pgid = child.pid as number;
      rememberTag(pgid, launch.tag);
      let finish: () => void = () => {};
      const entry: BackgroundProcess = {
        backgroundId,
        command: options.command,
        pgid,
        logFile,
        startedAt: Date.now(),
        runId: options.runId,
        done: new Promise<void>((resolveDone) => {
          finish = resolveDone;
        }),
      };
      rememberBackgroundProcess(entry);
      let killing: Promise<void> | undefined;
      const onAbort = () => {
        killing ??= killProcessGroup(pgid, options.killGraceMs);
      };
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
      child.once('exit', async (code, signal) => {
        entry.exitCode = code;
        entry.signal = signal;
        // `npm run dev &` inside a background command: the shell exits at once but the server is
        // still in the group. Keep the entry until the whole group is gone (or killed on abort).
        while (isGroupAlive(pgid)) await new Promise((resolveWait) => setTimeout(resolveWait, 200).unref());
        options.signal.removeEventListener('abort', onAbort);
        await killing;
        forgetTag(pgid);
        forgetBackgroundProcess(backgroundId);
        try {
          await options.onDone?.();
        } finally {
          finish();
        }
      });
      resolve(entry);
    });
  });
}

export { type BackgroundProcess, killBackgroundProcesses, listBackgroundProcesses } from './background-registry.js';
