import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isInsideRoot } from '../node/workspace-path.js';
import { parseRuleFile } from './front-matter.js';

/**
 * How a rule reaches the model: `always` in the system prompt; `glob` as a reminder once a matching
 * file is in play; `described` listed by path and description so the model reads it when relevant;
 * `manual` only when the user mentions it (`@name`).
 */
export type RuleKind = 'always' | 'glob' | 'described' | 'manual';

export interface WorkspaceRule {
  /** File name without extension (`AGENTS` for AGENTS.md); `@name` in a query applies it. */
  name: string;
  /** Where the rule lives: workspace-relative for the project layer, `~/.cairn/...` style for the user layer. */
  path: string;
  layer: 'project' | 'user';
  kind: RuleKind;
  description?: string;
  /** Workspace-relative globs (picomatch syntax) for `glob` rules. */
  globs: string[];
  body: string;
}

/** Bounds, so a huge or hostile rules folder cannot flood the prompt. */
export const ruleLimits = { maxFileBytes: 64 * 1024, maxFiles: 200, maxDepth: 4 };

const ruleFolders = ['.cairn/rules', '.cursor/rules'];

/**
 * The project layer's rules: `AGENTS.md` (else `CLAUDE.md`), the legacy `.cursorrules`, then
 * `.cairn/rules/` and `.cursor/rules/` (`.md`, `.mdc`, nested folders).
 */
export async function loadProjectRules(root: string): Promise<WorkspaceRule[]> {
  const rules: WorkspaceRule[] = [];
  const agentsFile = await readBoundedFile(root, join(root, 'AGENTS.md'));
  if (agentsFile?.trim()) rules.push({ name: 'AGENTS', path: 'AGENTS.md', layer: 'project', kind: 'always', globs: [], body: agentsFile.trim() });
  else {
    // Repositories set up for Claude Code keep the same kind of notes in CLAUDE.md (used only without AGENTS.md).
    const claudeFile = await readBoundedFile(root, join(root, 'CLAUDE.md'));
    if (claudeFile?.trim()) rules.push({ name: 'CLAUDE', path: 'CLAUDE.md', layer: 'project', kind: 'always', globs: [], body: claudeFile.trim() });
  }
  // Cursor's legacy single rules file.
  const legacyCursor = await readBoundedFile(root, join(root, '.cursorrules'));
  if (legacyCursor?.trim()) rules.push({ name: 'cursorrules', path: '.cursorrules', layer: 'project', kind: 'always', globs: [], body: legacyCursor.trim() });
  for (const folder of ruleFolders) {
    for (const relativePath of await listRuleFiles(root, folder)) {
      const text = await readBoundedFile(root, join(root, relativePath));
      if (text !== undefined) rules.push(toRule(text, relativePath, 'project'));
    }
  }
  return rules.filter((rule) => rule.body.length > 0);
}

/** The user layer: `<home>/AGENTS.md` and `<home>/rules/` where home is `$CAIRN_HOME` (default `~/.cairn`). */
export async function loadUserRules(home: string): Promise<WorkspaceRule[]> {
  const rules: WorkspaceRule[] = [];
  const agentsFile = await readBoundedFile(home, join(home, 'AGENTS.md'));
  if (agentsFile?.trim()) rules.push({ name: 'AGENTS', path: '~/.cairn/AGENTS.md', layer: 'user', kind: 'always', globs: [], body: agentsFile.trim() });
  for (const relativePath of await listRuleFiles(home, 'rules')) {
    const text = await readBoundedFile(home, join(home, relativePath));
    if (text !== undefined) rules.push(toRule(text, relativePath, 'user'));
  }
  return rules.filter((rule) => rule.body.length > 0);
}

function toRule(text: string, relativePath: string, layer: 'project' | 'user'): WorkspaceRule {
  const { frontMatter, body } = parseRuleFile(text);
  const fileName = relativePath.split('/').pop() ?? relativePath;
  const name = fileName.replace(/\.(mdc|md)$/i, '');
  const path = layer === 'user' ? `~/.cairn/${relativePath}` : relativePath;
  // A plain markdown file without front matter is an instruction file (like AGENTS.md): always on.
  let kind: RuleKind = 'always';
  if (frontMatter) {
    if (frontMatter.alwaysApply) kind = 'always';
    else if (frontMatter.globs.length > 0) kind = 'glob';
    else if (frontMatter.description) kind = 'described';
    else kind = 'manual';
  }
  return { name, path, layer, kind, ...(frontMatter?.description ? { description: frontMatter.description } : {}), globs: frontMatter?.globs ?? [], body };
}

/** Rule files under `folder` (relative to base), sorted so the prompt is byte-stable. */
async function listRuleFiles(base: string, folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > ruleLimits.maxDepth || found.length >= ruleLimits.maxFiles) return;
    let entries: Dirent[];
    try {
      entries = await readdir(join(base, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && /\.(md|mdc)$/i.test(entry.name) && found.length < ruleLimits.maxFiles) found.push(path);
    }
  };
  await walk(folder, 0);
  return found;
}

/**
 * Read a rule file, refusing one whose real path leaves `base` (a symlink in a cloned repo must not
 * pull `/etc/passwd` or `~/.ssh` into the prompt) and cutting it at the size limit.
 */
async function readBoundedFile(base: string, absolutePath: string): Promise<string | undefined> {
  try {
    const info = await lstat(absolutePath);
    if (!info.isFile() && !info.isSymbolicLink()) return undefined;
    const [realBase, realFile] = await Promise.all([realpath(base), realpath(absolutePath)]);
    if (!isInsideRoot(realBase, realFile)) return undefined;
    const bytes = await readFile(realFile);
    const text = bytes.subarray(0, ruleLimits.maxFileBytes).toString('utf8');
    return bytes.length > ruleLimits.maxFileBytes ? `${text}\n\n[rule file cut at ${ruleLimits.maxFileBytes} bytes]` : text;
  } catch {
    return undefined;
  }
}
