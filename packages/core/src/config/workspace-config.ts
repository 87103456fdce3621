import { homedir } from 'node:os';
import { join } from 'node:path';
import { type IndexSettings, loadIndexSettings } from './index-settings.js';
import { loadPermissionLayers, type PermissionFileLayer } from './permission-files.js';
import { loadProjectRules, loadUserRules, type WorkspaceRule } from './rules-loader.js';
import { type ResolvedSettingSources, resolveSettingSources, type SettingSource } from './setting-sources.js';

export interface WorkspaceConfig {
  sources: ResolvedSettingSources;
  /** Project rules first, then user rules, each sorted by path. */
  rules: WorkspaceRule[];
  /**
   * For `createPermissionChecker(options, cwd, extraLayers)`. Each layer also carries its file's
   * `autoRun` guidance for the auto-reviewer (`autoRunGuidanceOf(layers)`), under the same trust rules.
   */
  permissionLayers: PermissionFileLayer[];
  /** `index` of settings.json (the codebase index's embedding model); `error` when the file is wrong, so a run still starts. */
  index?: IndexSettings & { error?: string };
}

/** `$CAIRN_HOME`, default `~/.cairn`: the user layer and the default store live here. */
export function cairnHome(env: Record<string, string | undefined> = process.env): string {
  return env.CAIRN_HOME?.trim() || join(homedir(), '.cairn');
}

/**
 * Read the on-disk configuration layers for one send. Only reads files: nothing here starts a
 * process, and rule text never changes permissions.
 */
export async function loadWorkspaceConfig(input: { root: string; env?: Record<string, string | undefined>; settingSources?: readonly SettingSource[] }): Promise<WorkspaceConfig> {
  const sources = resolveSettingSources(input.settingSources);
  const home = cairnHome(input.env);
  const [projectRules, userRules, permissionLayers, index] = await Promise.all([
    sources.project ? loadProjectRules(input.root) : Promise.resolve([]),
    sources.user ? loadUserRules(home) : Promise.resolve([]),
    loadPermissionLayers({ root: input.root, home, project: sources.project, user: sources.user, projectTrusted: sources.projectTrusted }),
    loadIndexSettings({ root: input.root, home, sources }).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) })),
  ]);
  return { sources, rules: [...projectRules, ...userRules], permissionLayers, index };
}
