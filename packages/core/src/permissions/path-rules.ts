import { homedir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import type picomatchFactory from 'picomatch';
import { lazyRequire } from '../util/lazy-require.js';

const loadPicomatch = lazyRequire<typeof picomatchFactory>('picomatch');

const matcherCache = new Map<string, (path: string) => boolean>();

/**
 * Does a path rule (`src/**`, `.env*`, `/etc/**`, `~/.ssh/**`) match an absolute path?
 * Relative globs are matched against the path relative to the workspace root, so they never match
 * outside it; a glob without a slash (`.env*`) matches the file name at any depth, as in
 * .gitignore. Absolute and `~/` globs match the absolute path. Dot files are matched (dot: true).
 */
export function pathRuleMatches(glob: string, absolutePath: string, root: string): boolean {
  const posix = (path: string) => path.split(sep).join('/');
  let pattern = glob;
  if (pattern.startsWith('~/')) pattern = posix(homedir()) + pattern.slice(1);
  const absoluteRule = isAbsolute(pattern);
  let subject: string;
  if (absoluteRule) subject = posix(absolutePath);
  else {
    const rel = relative(root, absolutePath);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
    subject = posix(rel);
    pattern = pattern.replace(/^\.\//, '');
  }
  const key = `${absoluteRule}\u0000${pattern}`;
  let matcher = matcherCache.get(key);
  if (!matcher) {
    const basenameOnly = !absoluteRule && !pattern.includes('/');
    const picomatch = loadPicomatch();
    const compiled = picomatch(pattern, { dot: true, basename: basenameOnly });
    // `src` should also cover everything below `src/`.
    const below = pattern.endsWith('/**') ? undefined : picomatch(`${pattern.replace(/\/$/, '')}/**`, { dot: true, basename: false });
    matcher = (path) => compiled(path) || (below?.(path) ?? false);
    matcherCache.set(key, matcher);
  }
  return matcher(subject);
}
