import { loadPermissionLayers } from '../config/permission-files.js';
import { cairnHome, loadWorkspaceConfig, type WorkspaceConfig } from '../config/workspace-config.js';
import type { SettingSource } from '../config/setting-sources.js';
import { projectLayout } from '../context/user-context.js';

/**
 * The workspace scan a send does (rules and AGENTS.md of its setting sources; the project layout of
 * a conversation's first message), cached for `ttlMs` when
 * `Cairn.configure({ local: { workspaceScanCacheTtlMs } })` asks for it. Off by default, so an edit
 * to a rules file applies at the very next send. Process-wide, like the setting that turns it on;
 * a failed scan is never cached. Permission files are re-read at every send even then: a deny rule
 * just added must never wait for a cache to expire.
 */
let ttlMs = 0;
const entries = new Map<string, { at: number; value: Promise<unknown> }>();

export function setWorkspaceScanCacheTtl(milliseconds: number): void {
  ttlMs = milliseconds;
  entries.clear();
}

export function workspaceScanCacheTtl(): number {
  return ttlMs;
}

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  if (ttlMs === 0) return load();
  const now = Date.now();
  for (const [entryKey, entry] of entries) if (now - entry.at >= ttlMs) entries.delete(entryKey);
  const hit = entries.get(key);
  if (hit) return hit.value as Promise<T>;
  const value = load();
  entries.set(key, { at: now, value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

/** `loadWorkspaceConfig`, its rules through the cache, its permission layers always fresh. */
export async function loadWorkspaceConfigCached(input: { root: string; env?: Record<string, string | undefined>; settingSources?: readonly SettingSource[] }): Promise<WorkspaceConfig> {
  if (ttlMs === 0) return loadWorkspaceConfig(input);
  // The same inputs give the same layers: the root, the user layer's home, the sources asked for.
  const home = cairnHome(input.env);
  const sources = input.settingSources === undefined ? 'default' : [...new Set(input.settingSources)].sort().join(',');
  const config = await cached(`config\0${input.root}\0${home}\0${sources}`, () => loadWorkspaceConfig(input));
  const { project, user, projectTrusted } = config.sources;
  return { ...config, permissionLayers: await loadPermissionLayers({ root: input.root, home, project, user, projectTrusted }) };
}

/** `projectLayout` (default bounds), through the cache. */
export function projectLayoutCached(root: string): Promise<string> {
  return cached(`layout\0${root}`, () => projectLayout(root));
}
