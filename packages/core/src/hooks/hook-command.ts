import { spawn } from 'node:child_process';

/** Each of stdout and stderr keeps at most this much; a hook that writes more is cut, and told so. */
export const hookOutputCap = 64 * 1024;

export interface HookProcessResult {
  /** null when the process did not exit by itself (timed out, cancelled, or could not start). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The process could not be started (sh missing, cwd gone). */
  startError?: string;
}

export interface HookProcessOptions {
  command: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The JSON payload, written to stdin. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Run one hook command with `sh -c`, the payload on stdin. It runs in its own process group, so a
 * timeout or a cancel kills everything it started (a hook that backgrounds a child that keeps the
 * pipes open cannot hang the run). Never rejects: every failure is in the result.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const stdout = new CappedText();
    const stderr = new CappedText();
    let exitCode: number | null = null;
    let timedOut = false;
    let settled = false;
    const child = spawn('sh', ['-c', options.command], { cwd: options.cwd, env: definedEnv(options.env), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (extra: Partial<HookProcessResult> = {}) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      killGroup();
      resolve({ exitCode, stdout: stdout.text(), stderr: stderr.text(), timedOut, ...extra });
    };
    const timer = setTimeout(() => {
      // A hook that exited but left a child holding its pipes has answered: keep its exit code.
      if (exitCode === null) timedOut = true;
      finish();
    }, options.timeoutMs);
    const onAbort = () => finish();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('error', (error) => finish({ startError: error.message }));
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : null);
    });
    child.on('close', () => finish());
    // A hook that does not read its stdin closes the pipe early: that is not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

class CappedText {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private cut = false;

  add(chunk: Buffer): void {
    if (this.size >= hookOutputCap) {
      this.cut = true;
      return;
    }
    const room = hookOutputCap - this.size;
    if (chunk.length > room) this.cut = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.cut ? `${text}\n[hook output cut at ${hookOutputCap} bytes]` : text;
  }
}

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}
