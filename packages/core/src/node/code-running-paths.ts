import { isAbsolute, relative, sep } from 'node:path';
import { configuredHooksPath, enclosingRepository, readRepositoryConfig } from './git-config.js';

/**
 * Folders of editors and dev-container tools whose files run commands when a folder is opened or a
 * task is started (`.vscode/tasks.json` with `runOn: folderOpen`, `.vscode/mcp.json`, `.idea` run
 * configurations, `.devcontainer/devcontainer.json` `initializeCommand`, `.zed/tasks.json`). The
 * whole folder counts: its files are configuration, and a file-by-file list misses new ones.
 */
export const editorConfigFolders: readonly string[] = ['.vscode', '.idea', '.devcontainer', '.zed', '.fleet'];
/** Single files with the same role (`.devcontainer.json` at a project root). */
export const editorConfigFiles: readonly string[] = ['.devcontainer.json'];
/**
 * Hook folders by convention (husky, plain `core.hooksPath` setups): a later `npm install` or a
 * teammate's setup script points `core.hooksPath` at them, so they are protected even before.
 */
export const conventionalHookFolders: readonly string[] = ['.husky', '.githooks'];
/** The names git runs from a hooks folder (githooks(5)). */
export const gitHookNames: readonly string[] = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit',
  'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'proc-receive', 'post-receive', 'post-update',
  'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist',
  'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit', 'post-index-change',
];

function segmentsOf(root: string, absolutePath: string): string[] | undefined {
  const rel = relative(root, absolutePath);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep);
}

function isInside(folder: string, path: string): boolean {
  return segmentsOf(folder, path) !== undefined || folder === path;
}

/**
 * Why writing `absolutePath` would change what the host's tools run later, for the paths the
 * `.git` rule of protected-paths.ts does not already cover: editor configuration at any depth
 * (a subfolder can be opened as a project of its own), hook folders by convention, the folder
 * `core.hooksPath` names and config files the repository's config includes.
 */
export function codeRunningPathReason(root: string, absolutePath: string): string | undefined {
  const segments = segmentsOf(root, absolutePath);
  if (!segments) return undefined;
  const lower = segments.map((segment) => segment.toLowerCase());
  const editorFolder = lower.find((segment) => editorConfigFolders.includes(segment));
  if (editorFolder) return `it is editor configuration that can run commands (${editorFolder}/)`;
  const name = lower[lower.length - 1] ?? '';
  if (editorConfigFiles.includes(name)) return `it is editor configuration that can run commands (${name})`;
  const hookFolder = lower.find((segment) => conventionalHookFolders.includes(segment));
  if (hookFolder) return `it is a git hook folder (${hookFolder}/): git runs the hooks in it`;
  // The repository the workspace belongs to; its work tree may lie above the workspace.
  const repository = enclosingRepository(root);
  if (!repository) return undefined;
  const config = readRepositoryConfig(repository.gitDir);
  const hooksPath = configuredHooksPath(config, repository.workTree);
  // `core.hooksPath = .` makes the work tree the hooks folder: then only the hook names at its top count.
  const inHooks =
    hooksPath === repository.workTree
      ? relative(repository.workTree, absolutePath).toLowerCase() === name && gitHookNames.includes(name)
      : hooksPath !== undefined && isInside(hooksPath, absolutePath);
  if (inHooks) return 'it is in the folder core.hooksPath names: git runs the hooks in it';
  if (config.includes.some((file) => file === absolutePath)) return 'it is a git config file the repository includes (it can run programs)';
  return undefined;
}
