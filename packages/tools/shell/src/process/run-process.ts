import { spawn } from 'node:child_process';
import { killProcessGroup, killProcessGroupNow } from './kill-group.js';
import { forgetTag, rememberTag, tagLaunch } from './namespace-tag.js';
import { type CapturedOutput, OutputCapture } from './output-capture.js';

export interface RunProcessOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs: number;
  headBytes: number;
  tailBytes: number;
  /** Live output budget: after this many bytes, deltas stop (the result and spill file still have everything). */
  streamBytes: number;
  /** Spill file name stem. */
  name: string;
  onOutput?(stream: 'stdout' | 'stderr', text: string): void;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  output: CapturedOutput;
}

/**
 * Runs a command in its own process group (`detached`), stdin closed, stdout and stderr
 * interleaved into one bounded capture. Timeout and abort kill the whole group; when the shell
 * exits, members it left running in the background are killed too, so nothing outlives the call.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const capture = new OutputCapture({ headBytes: options.headBytes, tailBytes: options.tailBytes, name: options.name });
    let streamed = 0;
    let timedOut = false;
    let cancelled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killing: Promise<void> | undefined;
    let forceClose: NodeJS.Timeout | undefined;

    const launch = tagLaunch(options.file, options.args);
    const child = spawn(options.file, launch.args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pgid = child.pid;
    if (pgid !== undefined) rememberTag(pgid, launch.tag);
    trackForegroundGroup(pgid);

    const killGroup = () => {
      if (pgid === undefined) return;
      killing ??= killProcessGroup(pgid, options.killGraceMs).then(() => {
        // A process that left the group (setsid) may still hold our pipes: stop waiting for it.
        forceClose = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, 1000);
      });
    };

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    for (const stream of ['stdout', 'stderr'] as const) {
      const pipe = child[stream];
      const decoder = new TextDecoder('utf-8', { fatal: false });
      pipe?.on('data', (chunk: Buffer) => {
        if (!capture.write(chunk)) {
          pipe.pause();
          void capture.drained().then(() => pipe.resume());
        }
        if (options.onOutput && streamed < options.streamBytes) {
          const piece = chunk.subarray(0, options.streamBytes - streamed);
          streamed += piece.length;
          const text = decoder.decode(piece, { stream: streamed < options.streamBytes });
          if (text) options.onOutput(stream, text);
          if (streamed >= options.streamBytes) options.onOutput(stream, '\n[live output paused: the rest is in the result]\n');
        }
      });
    }

    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Background jobs the command started would otherwise be orphaned and keep the pipes open.
      killGroup();
    });
    child.on('close', async (code, signal) => {
      if (pgid !== undefined) foregroundGroups.delete(pgid);
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      await killing;
      if (pgid !== undefined) forgetTag(pgid);
      if (forceClose) clearTimeout(forceClose);
      const output = await capture.finish();
      resolve({
        exitCode: exit?.code ?? code,
        signal: exit?.signal ?? signal,
        durationMs: Date.now() - started,
        timedOut,
        cancelled,
        output,
      });
    });
  });
}

// Process groups of commands still running in the foreground. A detached group does not die with
// the agent's process on its own, so the agent takes them along when it exits.
const foregroundGroups = new Set<number>();
let exitHookInstalled = false;

function trackForegroundGroup(pgid: number | undefined): void {
  if (pgid === undefined) return;
  foregroundGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of foregroundGroups) killProcessGroupNow(group);
  });
}
