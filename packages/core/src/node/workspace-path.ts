import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError } from '../spec/errors/index.js';

/**
 * True when `child` is `root` or lies inside it, comparing whole path segments (so `/w/proj-evil`
 * is not inside `/w/proj`). Both must be absolute and normalised.
 */
export function isInsideRoot(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

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

/**
 * Resolve a model-supplied path inside the workspace, refusing anything that escapes it: `..`
 * traversal, absolute paths elsewhere, symlinks (in the path or its parents) that point outside.
 * `root` must be canonical (see canonicalWorkspaceRoot).
 */
export async function resolveWorkspacePath(root: string, inputPath: string, options: { allowRoot?: boolean } = {}): Promise<ResolvedWorkspacePath> {
  if (typeof inputPath !== 'string' || inputPath.length === 0) {
    if (options.allowRoot) return { absolute: root, relative: '', isSymlink: false, lexical: root };
    throw new ToolError('A path is required.');
  }
  if (inputPath.includes('\0')) throw new ToolError('The path contains a NUL byte.');
  const lexical = resolve(root, inputPath);
  if (!isInsideRoot(root, lexical)) {
    throw new ToolError(`Path ${inputPath} is outside the workspace ${root}. Use a path inside the workspace.`);
  }
  let absolute: string;
  try {
    absolute = await canonicalizePath(lexical);
  } catch (error) {
    throw new ToolError(`Path ${inputPath} cannot be resolved (${(error as Error).message}).`, { cause: error });
  }
  if (!isInsideRoot(root, absolute)) {
    throw new ToolError(`Path ${inputPath} resolves through a symbolic link to ${absolute}, outside the workspace. Refused.`);
  }
  let isSymlink = false;
  try {
    isSymlink = (await lstat(lexical)).isSymbolicLink();
  } catch {
    isSymlink = false;
  }
  if (!options.allowRoot && absolute === root && lexical === root) {
    // Callers that act on a file (write, delete) pass allowRoot: false to refuse the root itself.
    throw new ToolError('The workspace root itself cannot be the target of this operation.');
  }
  return { absolute, relative: toPosix(relative(root, absolute)), isSymlink, lexical };
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
