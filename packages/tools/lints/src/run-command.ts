import { spawn } from 'node:child_process';
import { ToolError } from '@cairn/core';

export { linterEnvironment } from './linter-environment.js';

/** A process to start: the linter itself on the host, or the sandbox that runs it. */
export interface SpawnCommand {
  file: string;
  args: string[];
  cwd: string;
}

export interface CommandResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const maxOutputBytes = 32 * 1024 * 1024;

/**
 * Run one command as argv (never through a shell) in its own process group, so a timeout or a
 * cancel kills the linter and anything it started. Output beyond 32 MB is dropped.
 */
export function runCommand(
  command: SpawnCommand,
  options: { env: Record<string, string>; timeoutMs: number; signal: AbortSignal },
): Promise<CommandResult> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      cwd: command.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (size >= maxOutputBytes) return;
      size += chunk.length;
      into.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    const kill = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (process.platform === 'win32') child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => kill();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not start ${command.file}: ${error.message}`, { cause: error }));
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) {
        reject(options.signal.reason);
        return;
      }
      resolve({ exitCode, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), timedOut });
    });
  });
}
