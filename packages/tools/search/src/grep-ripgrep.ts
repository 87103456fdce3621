import { spawn } from 'node:child_process';
import { ToolError } from '@cairn/core';
import type { GrepPlan } from './grep-input.js';
import { type GrepEntry, sortEntriesByPath } from './grep-output.js';
import type { RipgrepJail } from './ripgrep-jail.js';
import { ripgrepArguments } from './ripgrep-arguments.js';

export interface RipgrepSearch {
  /** rg runs inside it, seeing only the workspace (see ripgrepJail). */
  jail: RipgrepJail;
  root: string;
  /** Posix path relative to the root, '' for the whole workspace. */
  target: string;
  plan: GrepPlan;
  maxColumns: number;
  /** rg is killed once it printed this much (results are filtered afterwards, so keep headroom). */
  maxOutputBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface RipgrepResult {
  entries: GrepEntry[];
  stoppedBy?: 'timeout' | 'entries';
  /** rg's error lines (unreadable files and the like) when it still produced results. */
  warnings: string[];
}

/** Parse `--null` output: `path\0N:text`, `path\0N-text`, `--`, `path\0count`, `path\0` (files mode). */
export function parseRipgrepOutput(output: string, mode: GrepPlan['mode'], complete: boolean): GrepEntry[] {
  const entries: GrepEntry[] = [];
  if (mode === 'files_with_matches') {
    const parts = output.split('\0');
    const last = parts.pop();
    if (complete && last) parts.push(last);
    for (const path of parts) if (path) entries.push({ type: 'file', path: path.replace(/^\n/, '') });
    return entries;
  }
  const lines = output.split('\n');
  const last = lines.pop();
  if (complete && last) lines.push(last);
  for (const line of lines) {
    if (line === '--') {
      entries.push({ type: 'separator' });
      continue;
    }
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    const path = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    if (mode === 'count') {
      entries.push({ type: 'count', path, count: Number(rest) });
      continue;
    }
    const parsed = /^(\d+)([:-])/.exec(rest);
    if (!parsed?.[1]) continue;
    entries.push({ type: 'line', path, lineNumber: Number(parsed[1]), isMatch: parsed[2] === ':', text: rest.slice(parsed[0].length) });
  }
  return entries;
}

/**
 * Output read from an unsorted (parallel) rg run before it counts as capped. Everything below it is
 * collected, parsed and sorted by path; about 40 ms of parsing at the bound.
 */
export const unsortedOutputBound = 4 * 1024 * 1024;

/**
 * rg walks in parallel (no `--sort=path`, which forces one thread) and the output is sorted
 * afterwards. When the output passes `unsortedOutputBound`, which files made it in depends on
 * thread timing, so rg runs again in path order and is stopped at `maxOutputBytes`: a capped
 * result is always the first results in path order, the same on every run.
 */
export async function runRipgrep(search: RipgrepSearch): Promise<RipgrepResult> {
  const deadline = Date.now() + search.timeoutMs;
  const parallel = await spawnRipgrep(search, { sortByPath: false, maxOutputBytes: Math.max(unsortedOutputBound, search.maxOutputBytes), deadline });
  if (parallel.stoppedBy !== 'entries') {
    const separateFiles = search.plan.mode === 'content' && (search.plan.before > 0 || search.plan.after > 0);
    return { ...parallel, entries: sortEntriesByPath(parallel.entries, separateFiles) };
  }
  return spawnRipgrep(search, { sortByPath: true, maxOutputBytes: search.maxOutputBytes, deadline });
}

interface RipgrepRun {
  sortByPath: boolean;
  maxOutputBytes: number;
  deadline: number;
}

function spawnRipgrep(search: RipgrepSearch, run: RipgrepRun): Promise<RipgrepResult> {
  return new Promise((resolve, reject) => {
    const args = ripgrepArguments(search.plan, search.target, search.maxColumns, { sortByPath: run.sortByPath });
    // No environment at all: rg needs none (--no-config), and the agent's keys stay out of reach.
    const child = spawn(search.jail.file, [...search.jail.prefix(search.root), ...args], {
      cwd: search.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {},
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let stoppedBy: RipgrepResult['stoppedBy'];
    const stop = (reason: NonNullable<RipgrepResult['stoppedBy']>) => {
      stoppedBy ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), Math.max(0, run.deadline - Date.now()));
    const onAbort = () => stop('timeout');
    search.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stoppedBy) return;
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes >= run.maxOutputBytes) stop('entries');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      search.signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not run ripgrep: ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      search.signal.removeEventListener('abort', onAbort);
      if (search.signal.aborted) return reject(search.signal.reason);
      const output = Buffer.concat(chunks).toString('utf8');
      const warnings = stderr.split('\n').filter(Boolean);
      if (code === 2 && output === '' && !stoppedBy) {
        const message = warnings.join('\n').replace(/^rg: /, '');
        return reject(new ToolError(`ripgrep rejected the search: ${message.slice(0, 1000)}`));
      }
      const entries = parseRipgrepOutput(output, search.plan.mode, !stoppedBy);
      resolve(stoppedBy ? { entries, stoppedBy, warnings } : { entries, warnings });
    });
  });
}
