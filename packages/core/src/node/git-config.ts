import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** One `key = value` line of a git config file; section and key lower-cased, the subsection as written. */
export interface GitConfigEntry {
  section: string;
  subsection?: string;
  key: string;
  value: string;
}

const sectionHeader = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/;

/**
 * A small reader for git's config syntax: sections (`[core]`, `[includeIf "gitdir:x"]`, the old
 * `[a.b]`), quoted values with escapes, `#`/`;` comments and line continuations. It only needs to
 * find the few keys that decide which files git runs or reads (hooksPath, include paths), so
 * anything it does not understand is skipped, never guessed.
 */
export function parseGitConfig(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = '';
  let subsection: string | undefined;
  const lines = text.replace(/\\\r?\n/g, '').split(/\r?\n/);
  for (const rawLine of lines) {
    let line = rawLine.trim();
    const header = sectionHeader.exec(line);
    if (header) {
      const name = (header[1] ?? '').toLowerCase();
      const dot = header[2] === undefined ? name.indexOf('.') : -1;
      section = dot > 0 ? name.slice(0, dot) : name;
      subsection = dot > 0 ? name.slice(dot + 1) : header[2]?.replace(/\\(.)/g, '$1');
      line = line.slice(header[0].length).trim();
      if (line === '') continue;
    }
    const match = /^([A-Za-z][A-Za-z0-9-]*)\s*(=\s*(.*))?$/.exec(line);
    if (!match || section === '') continue;
    const entry: GitConfigEntry = { section, key: (match[1] ?? '').toLowerCase(), value: match[2] === undefined ? 'true' : configValue(match[3] ?? '') };
    if (subsection !== undefined) entry.subsection = subsection;
    entries.push(entry);
  }
  return entries;
}

function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index] as string;
    if (character === '\\' && index + 1 < raw.length) {
      const next = raw[++index] as string;
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (character === '"') quoted = !quoted;
    else if (!quoted && (character === '#' || character === ';')) break;
    else value += character;
  }
  return value.trim();
}

/** The last value of `section.key` (git's "last one wins"). */
export function lastGitConfigValue(entries: GitConfigEntry[], section: string, key: string): string | undefined {
  let found: string | undefined;
  for (const entry of entries) if (entry.section === section && entry.key === key) found = entry.value;
  return found;
}

function readText(path: string): string | undefined {
  try {
    // Config files are small; a huge one is not something git would read either.
    if (statSync(path).size > 1_000_000) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** The user's and the system's config files, which also decide what runs in a repository. */
export function globalGitConfigFiles(): string[] {
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return ['/etc/gitconfig', join(xdg, 'git', 'config'), join(homedir(), '.gitconfig')];
}

/** The git dir's common dir (`commondir` of a linked worktree), or the git dir itself. */
export function gitCommonDir(gitDir: string): string {
  const commonDir = readText(join(gitDir, 'commondir'))?.trim();
  return commonDir ? resolve(gitDir, commonDir) : gitDir;
}

/** Where a `.git` file (`gitdir: <path>`) points, or undefined when it is not one. */
export function gitFileTarget(gitFile: string): string | undefined {
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(readText(gitFile) ?? '')?.[1];
  return target ? resolve(dirname(gitFile), target) : undefined;
}

/**
 * The repository `folder` belongs to, as git finds it: the nearest `.git` folder or `.git` file at
 * or above it. The work tree may lie above the folder (a workspace inside a repository).
 */
export function enclosingRepository(folder: string): { gitDir: string; workTree: string } | undefined {
  for (let current = resolve(folder); ; current = dirname(current)) {
    const dotGit = join(current, '.git');
    try {
      const info = lstatSync(dotGit);
      // Like git, a folder without HEAD is not a repository (an empty placeholder, a half-deleted one).
      if (info.isDirectory() && existsSync(join(dotGit, 'HEAD'))) return { gitDir: dotGit, workTree: current };
      if (info.isFile()) {
        const target = gitFileTarget(dotGit);
        if (target) return { gitDir: target, workTree: current };
      }
    } catch {
      // not here; look one folder up
    }
    if (dirname(current) === current) return undefined;
  }
}

export interface RepositoryConfig {
  entries: GitConfigEntry[];
  /** Every file read, includes (`include.path`, `includeIf.*.path`) followed, absolute. */
  files: string[];
  /** Every file an include names, whether it exists or not: creating a missing one adds config too. */
  includes: string[];
}

/**
 * The config git would apply in a repository: system and user files, then the repository's own
 * (the common dir's `config`), with includes followed (at most 10 deep, as git does).
 */
export function readRepositoryConfig(gitDir: string): RepositoryConfig {
  const result: RepositoryConfig = { entries: [], files: [], includes: [] };
  const visit = (file: string, depth: number) => {
    const text = readText(file);
    if (text === undefined || depth > 10) return;
    result.files.push(file);
    for (const entry of parseGitConfig(text)) {
      result.entries.push(entry);
      if (entry.key === 'path' && (entry.section === 'include' || entry.section === 'includeif') && entry.value !== '') {
        const expanded = expandHome(entry.value);
        const included = isAbsolute(expanded) ? expanded : resolve(dirname(file), expanded);
        result.includes.push(included);
        visit(included, depth + 1);
      }
    }
  };
  for (const file of globalGitConfigFiles()) visit(file, 0);
  visit(join(gitCommonDir(gitDir), 'config'), 0);
  return result;
}

/** `core.hooksPath` as git resolves it for a work tree (relative to the work tree, `~/` expanded). */
export function configuredHooksPath(config: RepositoryConfig, workTree: string): string | undefined {
  const value = lastGitConfigValue(config.entries, 'core', 'hookspath');
  if (!value) return undefined;
  const expanded = expandHome(value);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(workTree, expanded);
}
