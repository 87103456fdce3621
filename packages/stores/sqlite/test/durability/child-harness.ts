import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'tsup';
import type { ChildConfig } from './fixtures/agent-child.js';

const packageRoot = resolve(import.meta.dirname, '../..');

/**
 * Bundle the agent child from the current sources (the `cairn-source` condition) into a folder
 * inside node_modules, so the bundle finds better-sqlite3 (external: a native addon).
 */
export async function buildAgentChild(name: string, fixture = 'agent-child'): Promise<{ script: string; dispose(): void }> {
  const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-durability-${name}-${process.pid}`);
  await build({
    config: false,
    entry: { [fixture]: join(packageRoot, `test/durability/fixtures/${fixture}.ts`) },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    sourcemap: false,
    silent: true,
    noExternal: [/^@cairn\//, 'zod'],
    external: ['better-sqlite3', 'vitest'],
    // Bundled CommonJS dependencies (yaml, …) call require() for Node built-ins.
    banner: { js: "import { createRequire as cairnCreateRequire } from 'node:module'; const require = cairnCreateRequire(import.meta.url);" },
    esbuildOptions(options) {
      options.conditions = ['cairn-source'];
    },
  });
  return { script: join(outDir, `${fixture}.js`), dispose: () => rmSync(outDir, { recursive: true, force: true }) };
}

export type ChildLine = Record<string, any>;

/** A running agent child: its parsed stdout lines, and ways to wait for one and to kill it. */
export class AgentChild {
  readonly lines: ChildLine[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly process: ChildProcess;
  private readonly waiters = new Set<() => void>();
  private stderr = '';

  constructor(script: string, config: ChildConfig | Record<string, unknown>, env: Record<string, string> = {}) {
    this.process = spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    createInterface({ input: this.process.stdout! }).on('line', (line) => {
      // A kill can cut the last line short: it is not a line the child finished printing.
      try {
        this.lines.push(JSON.parse(line));
      } catch {
        return;
      }
      for (const wake of [...this.waiters]) wake();
    });
    this.process.stderr!.on('data', (chunk) => (this.stderr += chunk));
    // Resolves once the process is reaped, so its pid no longer exists.
    this.exited = new Promise((resolveExit) => this.process.on('exit', (code, signal) => resolveExit({ code, signal })));
    this.exited.then(() => {
      for (const wake of [...this.waiters]) wake();
    });
  }

  get pid(): number {
    return this.process.pid as number;
  }

  /**
   * The first line (in order) matching `predicate`, which sees each line once, in order (so it may
   * count); fails when the child exits first or after `timeoutMs`.
   */
  waitFor(predicate: (line: ChildLine) => boolean, timeoutMs = 15_000): Promise<ChildLine> {
    let checked = 0;
    return new Promise((resolveLine, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out waiting for a child line; stderr: ${this.stderr}`)), timeoutMs);
      let exited = false;
      void this.exited.then(() => (exited = true));
      const check = () => {
        while (checked < this.lines.length) {
          const line = this.lines[checked++] as ChildLine;
          if (predicate(line)) return finish(undefined, line);
        }
        if (exited || this.process.exitCode !== null || this.process.signalCode !== null) finish(new Error(`the child exited first; stderr: ${this.stderr}; last lines: ${JSON.stringify(this.lines.slice(-3))}`));
      };
      const finish = (error?: Error, line?: ChildLine) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolveLine(line as ChildLine);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** SIGKILL, then wait until the process is gone. */
  async kill9(): Promise<void> {
    this.process.kill('SIGKILL');
    await this.exited;
  }

  /** Every event the child saw acknowledged by the store for `runId`, by offset. */
  acknowledged(runId: string): Map<number, unknown> {
    const events = new Map<number, unknown>();
    for (const line of this.lines) {
      if (!line.ack || line.ack.runId !== runId) continue;
      const { lastOffset, events: batch } = line.ack as { lastOffset: number; events: unknown[] };
      for (const [index, event] of batch.entries()) events.set(lastOffset - batch.length + 1 + index, event);
    }
    return events;
  }

  deltas(): string[] {
    return this.lines.filter((line) => typeof line.delta === 'string').map((line) => line.delta as string);
  }
}
