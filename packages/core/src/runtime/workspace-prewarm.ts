import { stat } from 'node:fs/promises';
import { canonicalWorkspaceRoot } from '../node/workspace-path.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { AgentOptions } from './agent-options.js';
import { assertSettingSources, assertSupportedOptions } from './agent-option-checks.js';
import { loadWorkspaceConfigCached, projectLayoutCached } from './workspace-scan-cache.js';

/**
 * The workspace part of a first send, done ahead: the folder checked and canonicalised, its rules,
 * AGENTS.md and permissions files for the options' setting sources, its ignore files and project
 * layout. The results go through the workspace scan cache (kept when `workspaceScanCacheTtlMs` is
 * set); either way the lazily loaded modules and the file system caches are warm afterwards.
 * Returns the canonical root. Errors a send would report (a bad cwd, a broken permissions.json)
 * are thrown here as ConfigurationErrors.
 */
export async function prewarmWorkspaceScan(options: AgentOptions, where = 'prewarmLocalWorkspace'): Promise<string> {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError(`${where} takes the AgentOptions your agents use, e.g. { local: { cwd } }.`);
  if ('cwd' in options && !options.local) throw new ConfigurationError(`${where}: pass the workspace as local: { cwd }, the same AgentOptions your agents use.`);
  assertSupportedOptions(options, where);
  const cwd = options.local?.cwd;
  if (typeof cwd !== 'string' || cwd.trim() === '') throw new ConfigurationError(`${where} needs local.cwd: the workspace folder your agents will work in.`);
  assertSettingSources(options.local?.settingSources, where);
  const root = await canonicalWorkspaceRoot(cwd).catch(() => {
    throw new ConfigurationError(`${where}: the workspace folder ${cwd} does not exist. Create it or pass another local.cwd.`);
  });
  if (!(await stat(root)).isDirectory()) throw new ConfigurationError(`${where}: local.cwd ${cwd} is a file, not a folder.`);
  const env = options.env ?? process.env;
  await Promise.all([
    loadWorkspaceConfigCached({ root, env, ...(options.local?.settingSources ? { settingSources: options.local.settingSources } : {}) }),
    // The layout walk loads the ignore files too (the file tools' ignore rules).
    projectLayoutCached(root),
  ]);
  return root;
}
