import { access, constants, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

/** `$CAIRN_HOME`, default `~/.cairn`: where the agent store, the index and user settings live. */
export function cairnHome(env: Record<string, string | undefined>): string {
  return resolve(env.CAIRN_HOME?.trim() || join(homedir(), '.cairn'));
}

/** The SQLite agent store: where it is, whether it exists yet, and whether its folder can be written. */
export async function storeCheck(home: string): Promise<DoctorCheck> {
  const file = join(home, 'agents.db');
  const existing = await stat(file).catch(() => undefined);
  const folder = await nearestExisting(existing ? home : dirname(file));
  const writable = await access(folder, constants.W_OK).then(() => true, () => false);
  if (!writable) return fail('store', `${folder} cannot be written, so agents cannot be stored at ${file}`, 'fix the folder\'s permissions or point CAIRN_HOME at a writable folder');
  if (!existing) return ok('store', `${file} (created at the first run; set CAIRN_HOME to move it)`);
  return ok('store', `${file} (${(existing.size / 1024 / 1024).toFixed(1)} MiB; set CAIRN_HOME to move it)`);
}

/** The codebase index of the workspace: built or not, and how big, without building or changing it. */
export async function indexCheck(cwd: string, home: string): Promise<DoctorCheck> {
  const root = await realpath(cwd).catch(() => undefined);
  if (!root) return fail('index', `the workspace ${cwd} does not exist`, 'pass an existing folder with --cwd');
  const { createIndex, indexDatabasePath } = await import('@cairn/indexer');
  const file = indexDatabasePath(root, home);
  if (!(await stat(file).catch(() => undefined))) return warn('index', `${root} is not indexed`, `run \`cairn index --cwd ${root}\` for codebase_search and \`cairn search\``);
  const index = await createIndex({ cwd: root, home });
  try {
    const stats = await index.stats();
    const vectors = stats.vectors > 0 ? `, ${stats.vectors} vectors` : ' (identifiers only, no embedding model)';
    return ok('index', `${root}: ${stats.files} files, ${stats.chunks} chunks${vectors}; \`cairn index\` refreshes it`);
  } finally {
    index.close();
  }
}

async function nearestExisting(path: string): Promise<string> {
  let current = path;
  while (!(await stat(current).catch(() => undefined)) && dirname(current) !== current) current = dirname(current);
  return current;
}
