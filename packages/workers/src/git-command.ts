import { execFile } from 'node:child_process';

export interface GitOptions {
  cwd?: string;
  signal?: AbortSignal;
  /** `-c name=value` settings for this command only. */
  config?: Record<string, string>;
}

/** A git command that failed: its stderr (credentials in URLs masked) is what the run's error shows. */
export class GitCommandError extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(args: string[], exitCode: number | null, stderr: string) {
    const detail = maskCredentials(stderr.trim()).split('\n').slice(-6).join('\n');
    super(`git ${args[0] ?? ''} failed${exitCode === null ? '' : ` (exit ${exitCode})`}${detail ? `: ${detail}` : ''}`);
    this.name = 'GitCommandError';
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** `https://user:token@host/…` → `https://***@host/…`: a repository URL may carry a token; messages never do. */
export function maskCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1***@');
}

/**
 * git never waits for a person (no terminal prompt, ssh in batch mode) and speaks English (errors
 * are matched and shown as they are).
 */
function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes', LC_ALL: 'C' };
}

/** Runs `git` with an argument list (no shell), resolving with its stdout. */
export function git(args: string[], options: GitOptions = {}): Promise<string> {
  const settings = Object.entries(options.config ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...settings, ...args],
      { cwd: options.cwd, env: gitEnv(), maxBuffer: 64 * 1024 * 1024, ...(options.signal ? { signal: options.signal } : {}) },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
        reject((error as { name?: string }).name === 'AbortError' ? error : new GitCommandError(args, code, stderr || error.message));
      },
    );
  });
}

/** Like `git`, but an exit status of 1 is an answer (false), not a failure: `diff --quiet`, `rev-parse --verify`. */
export async function gitTest(args: string[], options: GitOptions = {}): Promise<boolean> {
  try {
    await git(args, options);
    return true;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1) return false;
    throw error;
  }
}
