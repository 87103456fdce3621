import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { codeRunningPathReason } from './code-running-paths.js';

// Files whose change would grant code execution or rewrite the agent's own policy (environment.json holds install/start commands).
const protectedConfigFiles = new Set(['mcp.json', 'hooks.json', 'environment.json', 'permissions.json', 'sandbox.json', 'settings.json', 'settings.local.json', 'cli.json', 'cli-config.json']);
/** Files a shell (or direnv) runs when it starts in a folder: protected in the workspace and in the home folder. */
export const shellStartupFiles: readonly string[] = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout',
  '.cshrc', '.tcshrc', '.kshrc', '.envrc', '.inputrc',
];
const startupFileNames = new Set(shellStartupFiles);

/** Where the agent's user-level settings live: `$CAIRN_HOME` (default `~/.cairn`) and the user's home. */
export interface AgentHomes {
  cairnHome: string;
  userHome: string;
}

/** The homes of an environment (the agent's `env`, default `process.env`), as the settings loaders find them. */
export function agentHomes(env: Record<string, string | undefined> = process.env): AgentHomes {
  // The same default as the settings loaders (`cairnHome` in config/): the process's home folder.
  return { cairnHome: resolve(env.CAIRN_HOME?.trim() || join(homedir(), '.cairn')), userHome: resolve(env.HOME?.trim() || homedir()) };
}

function inside(root: string, absolutePath: string): string[] | undefined {
  const rel = relative(root, absolutePath);
  // Whole segments: a folder named `..git-stuff` inside the root is inside, not outside.
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel === '' ? [] : rel.split(sep).map((segment) => segment.toLowerCase());
}

/** Agent, editor and tool configuration in a folder: the workspace root or the user's home. */
function configurationReason(segments: string[]): string | undefined {
  const [first, second] = segments;
  const name = segments.at(-1) ?? '';
  if (segments.includes('.git')) return 'it is inside .git/ (git internals such as hooks and config run code)';
  if (first === '.cairn') return "it is the agent's own configuration (.cairn/)";
  if (first === '.cursor' && (protectedConfigFiles.has(second ?? '') || (segments.length > 2 && (second === 'hooks' || second === 'agents')))) {
    return 'it is agent configuration under .cursor/ (MCP, hooks, permissions, sandbox, subagents)';
  }
  if (first === '.claude' && (second === 'settings.json' || second === 'settings.local.json' || (segments.length > 2 && (second === 'agents' || second === 'hooks')))) {
    return 'it is agent configuration under .claude/ (settings with hooks and permissions, subagents)';
  }
  if (segments.length === 1 && first === '.mcp.json') return 'it declares MCP servers the agent starts (.mcp.json)';
  if (first === '.vscode' && (name === 'settings.json' || name === 'tasks.json' || name === 'launch.json')) {
    return 'it is editor configuration that can run commands (.vscode/)';
  }
  if (startupFileNames.has(name)) return `it is a shell start-up file (${name})`;
  if (name === '.gitmodules' || name === '.gitconfig') return `it is git configuration (${name})`;
  return undefined;
}

/**
 * Why a write to `absolutePath` is refused, or undefined when it is allowed. Inside `root` (the
 * workspace): git internals, agent and editor configuration, shell start-up files. Outside it: the
 * agent's user-level settings (`$CAIRN_HOME`, `~/.cursor`, `~/.claude`), the user's git
 * configuration and shell start-up files, which the agent or the host would obey or run later.
 * Compared case-insensitively so `.GIT/config` on a case-insensitive file system is caught too.
 */
export function protectedPathReason(root: string, absolutePath: string, homes: AgentHomes = agentHomes()): string | undefined {
  if (inside(homes.cairnHome, absolutePath)) return "it is the agent's own user-level configuration ($CAIRN_HOME: permissions, settings, rules, the agent store)";
  const inRoot = inside(root, absolutePath);
  if (inRoot) return inRoot.length === 0 ? undefined : (configurationReason(inRoot) ?? codeRunningPathReason(root, absolutePath));
  const inHome = inside(homes.userHome, absolutePath);
  if (!inHome || inHome.length === 0) return undefined;
  if (inHome[0] === '.config' && (inHome[1] === 'git' || inHome[1] === 'cairn')) return `it is user configuration that runs code (~/.config/${inHome[1]})`;
  const reason = configurationReason(inHome);
  return reason ? `${reason.replace(/^it is /, 'it is user-level ')} in the home folder` : undefined;
}

/**
 * The user-level settings locations: for checks that cannot resolve paths (a shell command line)
 * and look for them as text, and for the sandbox, which keeps them read-only (existing or not) when
 * they lie inside the writable workspace, as `$CAIRN_HOME` may.
 */
export function agentSettingsLocations(homes: AgentHomes = agentHomes()): Array<{ path: string; kind: 'dir' | 'file' }> {
  const folders = [homes.cairnHome, join(homes.userHome, '.cairn'), join(homes.userHome, '.cursor'), join(homes.userHome, '.claude'), join(homes.userHome, '.config', 'git')];
  return [...folders.map((path) => ({ path, kind: 'dir' as const })), { path: join(homes.userHome, '.gitconfig'), kind: 'file' }];
}
