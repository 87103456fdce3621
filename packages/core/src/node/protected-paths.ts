import { basename, isAbsolute, relative, sep } from 'node:path';

// Files whose change would grant code execution or rewrite the agent's own policy (environment.json holds install/start commands).
const protectedConfigFiles = new Set(['mcp.json', 'hooks.json', 'environment.json', 'permissions.json', 'sandbox.json', 'settings.json', 'settings.local.json', 'cli.json']);
const shellStartupFiles = new Set([
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout',
  '.cshrc', '.tcshrc', '.kshrc', '.envrc', '.inputrc',
]);

/**
 * Why a write to `absolutePath` inside `root` is refused, or undefined when it is allowed. Compared
 * case-insensitively so `.GIT/config` on a case-insensitive file system is caught too.
 */
export function protectedPathReason(root: string, absolutePath: string): string | undefined {
  const rel = relative(root, absolutePath);
  // Whole segments: a folder named `..git-stuff` inside the root is inside, not outside.
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  const segments = rel.split(sep).map((segment) => segment.toLowerCase());
  const name = basename(rel).toLowerCase();
  if (segments.includes('.git')) return 'it is inside .git/ (git internals such as hooks and config run code)';
  if (segments[0] === '.cairn') return "it is the agent's own configuration (.cairn/)";
  if (segments[0] === '.cursor' && (protectedConfigFiles.has(segments[1] ?? '') || segments.length > 2 && segments[1] === 'hooks')) {
    return 'it is agent configuration under .cursor/ (MCP, hooks, permissions, sandbox)';
  }
  if (segments[0] === '.vscode' && (name === 'settings.json' || name === 'tasks.json' || name === 'launch.json')) {
    return 'it is editor configuration that can run commands (.vscode/)';
  }
  if (shellStartupFiles.has(name)) return `it is a shell start-up file (${name})`;
  if (name === '.gitmodules' || name === '.gitconfig') return `it is git configuration (${name})`;
  return undefined;
}
