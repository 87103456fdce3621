/**
 * The reference SDK's layer names. Cairn loads `project` and `user` (`all` = both); `team`, `mdm` and
 * `plugins` name layers Cairn has no equivalent of and are refused at Agent.create.
 */
export type SettingSource = 'project' | 'user' | 'team' | 'mdm' | 'plugins' | 'all';

export interface ResolvedSettingSources {
  /** Load the workspace layer: `.cairn/` and `.cursor/` rules, `AGENTS.md`, `permissions.json`. */
  project: boolean;
  /** Load the user layer under `$CAIRN_HOME` (default `~/.cairn`). */
  user: boolean;
  /**
   * The project layer was asked for explicitly. Only then may project files contribute what widens
   * the agent's powers: `allow` permission rules (and, in other packages, MCP servers and command hooks).
   */
  projectTrusted: boolean;
  userTrusted: boolean;
}

/**
 * Which on-disk layers load. Default (option absent): project and user instructions and restricting
 * permission rules (`deny`, `ask`), but nothing from the project layer that widens permissions or
 * starts a process. An empty array loads nothing (fully programmatic configuration).
 */
export function resolveSettingSources(sources: readonly SettingSource[] | undefined): ResolvedSettingSources {
  if (sources === undefined) return { project: true, user: true, projectTrusted: false, userTrusted: true };
  const all = sources.includes('all');
  const project = all || sources.includes('project');
  const user = all || sources.includes('user');
  return { project, user, projectTrusted: project, userTrusted: user };
}
