import { lazyImplementation } from '@cairn/core';
import type { LanguageServerStatus } from './server-pool.js';

export type { LanguageServerStatus } from './server-pool.js';

const pool = lazyImplementation(() => import('./server-pool.js'));

/** The diagnostics language servers of a workspace root (canonical path), with their state and pid. */
export async function languageServerStatus(root: string): Promise<LanguageServerStatus[]> {
  return (await pool()).serverStatus(root);
}

/** Resolves when every server of `root` that is starting is warm (or failed): for tests and benchmarks. */
export async function languageServersWarm(root: string): Promise<LanguageServerStatus[]> {
  const { entriesOf, serverStatus } = await pool();
  await Promise.all(entriesOf(root).map((entry) => entry.warmed));
  return serverStatus(root);
}

/** Pids of every running diagnostics language server of this process. */
export async function languageServerPids(): Promise<number[]> {
  return (await pool()).runningServerPids();
}
