import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { linterEnvironment } from '../linter-environment.js';
import type { LanguageServerConfig } from './diagnostics-settings.js';
import { LanguageServer } from './language-server.js';
import { type LspProcess, startLspProcess } from './lsp-process.js';

/** One server of one workspace root, shared by every agent of that root. */
export interface ServerEntry {
  readonly key: string;
  readonly config: LanguageServerConfig;
  readonly root: string;
  /** `starting` until initialized and warmed (the project loaded); `failed` keeps the reason. */
  state: 'starting' | 'ready' | 'failed';
  failure?: string;
  /** Resolves with the server once initialized (before the warm-up), rejects if it cannot start. */
  readonly started: Promise<LanguageServer>;
  /** Resolves once the warm-up is done (or failed). */
  readonly warmed: Promise<void>;
  server?: LanguageServer;
  refs: number;
  /** When the start was asked for, and when the server was warm (ms since epoch), for benchmarks. */
  readonly requestedAt: number;
  warmAt?: number;
}

const entries = new Map<string, ServerEntry>();
const live = new Set<LspProcess>();
let exitHookInstalled = false;

/**
 * The server for `config` in `root`, started in the background if it is not running; every call
 * must be paired with `releaseServer`. The last release shuts it down. The environment passed on
 * is the linters' one (PATH, HOME, temp, locale): no API keys.
 */
export function acquireServer(root: string, config: LanguageServerConfig, env: Record<string, string | undefined>): ServerEntry {
  const key = `${root}\u0000${config.id}`;
  const existing = entries.get(key);
  if (existing && existing.state !== 'failed') {
    existing.refs += 1;
    return existing;
  }
  installExitHook();
  const started = startLspProcess(config, root, linterEnvironment(env), AbortSignal.timeout(120_000)).then((spawned) => {
    live.add(spawned);
    void spawned.exited.then(() => {
      live.delete(spawned);
      if (entries.get(key) === entry) {
        entry.state = 'failed';
        entry.failure ??= `the ${config.id} language server exited${spawned.stderrTail() ? `: ${spawned.stderrTail().trim().split('\n').at(-1)}` : ''}`;
        entries.delete(key);
      }
    });
    return new LanguageServer(config, spawned);
  });
  const entry: ServerEntry = {
    key,
    config,
    root,
    state: 'starting',
    started,
    warmed: started.then(
      async (server) => {
        entry.server = server;
        await warmUp(server, root).catch(() => undefined);
        if (entry.state === 'starting') {
          entry.state = 'ready';
          entry.warmAt = Date.now();
        }
      },
      (error: unknown) => {
        entry.state = 'failed';
        entry.failure = error instanceof Error ? error.message : String(error);
        if (entries.get(key) === entry) entries.delete(key);
      },
    ),
    refs: 1,
    requestedAt: Date.now(),
  };
  started.catch(() => undefined);
  entries.set(key, entry);
  return entry;
}

/** Drop one reference; the last one shuts the server down (LSP shutdown, then its process group killed). */
export async function releaseServer(entry: ServerEntry): Promise<void> {
  entry.refs -= 1;
  if (entry.refs > 0) return;
  if (entries.get(entry.key) === entry) entries.delete(entry.key);
  entry.state = 'failed';
  entry.failure = 'the language server was shut down';
  const server = await entry.started.catch(() => undefined);
  if (!server) return;
  await server.process.close();
  live.delete(server.process);
}

/** A running, warm server of `root` that checks `path` (read_lints uses it instead of tsc). */
export function warmServerFor(root: string, path: string): LanguageServer | undefined {
  for (const entry of entries.values()) {
    if (entry.root === root && entry.state === 'ready' && entry.server?.languageOf(path)) return entry.server;
  }
  return undefined;
}

/** Pids of the running servers (tests check that none survives its agent). */
export function runningServerPids(): number[] {
  return [...live].map((server) => server.pid);
}

/**
 * Load the project before the first edit: diagnose one of its files (the first source file in the
 * root or in src/), which makes tsserver read the tsconfig and the libraries. The document stays
 * open, so its diagnostics are the "before" of a first edit of that file.
 */
async function warmUp(server: LanguageServer, root: string): Promise<void> {
  for (const folder of [root, join(root, 'src')]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    const name = names.sort().find((file) => server.languageOf(file) && !file.endsWith('.d.ts'));
    if (!name) continue;
    const path = join(folder, name);
    const text = await readFile(path, 'utf8');
    await server.diagnose(path, text, AbortSignal.timeout(120_000));
    return;
  }
}

/** A process that exits without closing its agents still takes its servers along. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const server of live) server.kill();
  });
}

/** What runs for `root`: for `languageServerStatus` (benchmarks, tests, hosts' status views). */
export function serverStatus(root: string): LanguageServerStatus[] {
  return [...entries.values()]
    .filter((entry) => entry.root === root)
    .map((entry) => ({
      id: entry.config.id,
      state: entry.state,
      ...(entry.server ? { pid: entry.server.process.pid } : {}),
      references: entry.refs,
      ...(entry.warmAt ? { warmAfterMs: entry.warmAt - entry.requestedAt } : {}),
      ...(entry.failure ? { failure: entry.failure } : {}),
    }));
}

export interface LanguageServerStatus {
  id: string;
  state: ServerEntry['state'];
  pid?: number;
  /** Agent sessions holding it. */
  references: number;
  /** From the start request to initialized and project loaded. */
  warmAfterMs?: number;
  failure?: string;
}

export function entriesOf(root: string): ServerEntry[] {
  return [...entries.values()].filter((entry) => entry.root === root);
}
