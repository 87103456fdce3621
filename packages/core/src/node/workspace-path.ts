import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ToolError } from '../spec/errors/index.js';
import { ConfinementError } from './confined-directory.js';
import { isInsideRoot } from './inside-root.js';
import { type BeneathEntry, type BeneathOptions, walkBeneath } from './resolve-beneath.js';

export { isInsideRoot };

/** The canonical (symlink-free) form of an existing directory used as a workspace root. */
export async function canonicalWorkspaceRoot(cwd: string): Promise<string> {
  try {
    return await realpath(resolve(cwd));
  } catch (error) {
    throw new ToolError(`The workspace folder ${cwd} does not exist or cannot be read.`, { cause: error });
  }
}

/**
 * Resolve the longest existing prefix of `absolutePath` through realpath and append the rest, so a
 * path that does not exist yet is still checked against symlinked parents.
 */
export async function canonicalizePath(absolutePath: string): Promise<string> {
  let existing = absolutePath;
  const missing: string[] = [];
  let linkHops = 0;
  for (;;) {
    try {
      const real = await realpath(existing);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling symlink is not a missing name: creating the path would land at its target.
      const target = await readlink(existing).catch(() => undefined);
      if (target !== undefined) {
        if (++linkHops > 40) throw Object.assign(new Error(`Too many levels of symbolic links in ${absolutePath}`), { code: 'ELOOP' });
        existing = resolve(dirname(existing), target);
        continue;
      }
      const parent = resolve(existing, '..');
      if (parent === existing) return absolutePath;
      missing.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

export interface ResolvedWorkspacePath {
  /** Canonical absolute path (symlinks resolved). */
  absolute: string;
  /** Relative to the workspace root with `/` separators ('' for the root itself). */
  relative: string;
  /** True when the path itself is a symbolic link (its target is `absolute`). */
  isSymlink: boolean;
  /** The path as given, made absolute but not canonicalised (where the link itself lives). */
  lexical: string;
}

export interface WorkspacePathOptions extends BeneathOptions {
  allowRoot?: boolean;
}

/** A resolved path plus the open folder that holds it, for I/O that must stay where it was checked. */
export interface OpenedWorkspacePath {
  resolved: ResolvedWorkspacePath;
  entry: BeneathEntry;
}

function describeConfinement(inputPath: string, error: ConfinementError): string {
  if (error.reason === 'outside') return `Path ${inputPath} resolves through a symbolic link to ${error.target}, outside the workspace. Refused.`;
  if (error.reason === 'changed') return `Path ${inputPath} changed while it was being opened (a folder on it was replaced); refused. Try again.`;
  return `Path ${inputPath} cannot be resolved (${error.message}).`;
}

/**
 * Resolve a model-supplied path inside the workspace and keep the folder holding it open (see
 * walkBeneath): `..` traversal, absolute paths elsewhere and symlinks (in the path or its parents)
 * that point outside are refused. `root` must be canonical (see canonicalWorkspaceRoot). The caller
 * closes `entry.folder`.
 */
export async function openWorkspacePath(root: string, inputPath: string, options: WorkspacePathOptions = {}): Promise<OpenedWorkspacePath> {
  const given = typeof inputPath === 'string' ? inputPath : '';
  if (given.length === 0 && !options.allowRoot) throw new ToolError('A path is required.');
  if (given.includes('\0')) throw new ToolError('The path contains a NUL byte.');
  const lexical = resolve(root, given);
  if (!isInsideRoot(root, lexical)) {
    throw new ToolError(`Path ${given} is outside the workspace ${root}. Use a path inside the workspace.`);
  }
  if (!options.allowRoot && lexical === root) {
    // Callers that act on a file (write, delete) pass allowRoot: false to refuse the root itself.
    throw new ToolError('The workspace root itself cannot be the target of this operation.');
  }
  let entry: BeneathEntry;
  try {
    entry = await walkBeneath(root, relative(root, lexical), options);
  } catch (error) {
    if (error instanceof ConfinementError) throw new ToolError(describeConfinement(given, error), { cause: error });
    throw new ToolError(`Path ${given} cannot be resolved (${(error as Error).message}).`, { cause: error });
  }
  const absolute = entry.relative === '' ? root : join(root, ...entry.relative.split('/'));
  if (!options.allowRoot && absolute === root) {
    await entry.folder.close();
    throw new ToolError('The workspace root itself cannot be the target of this operation.');
  }
  const isSymlink = await lstat(lexical).then((stats) => stats.isSymbolicLink(), () => false);
  return { resolved: { absolute, relative: entry.relative, isSymlink, lexical }, entry };
}

/** resolveWorkspacePath without keeping anything open: for checks and messages, not for I/O. */
export async function resolveWorkspacePath(root: string, inputPath: string, options: { allowRoot?: boolean } = {}): Promise<ResolvedWorkspacePath> {
  const { resolved, entry } = await openWorkspacePath(root, inputPath, options);
  await entry.folder.close();
  return resolved;
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
