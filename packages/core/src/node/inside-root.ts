import { isAbsolute, relative, sep } from 'node:path';

/**
 * True when `child` is `root` or lies inside it, comparing whole path segments (so `/w/proj-evil`
 * is not inside `/w/proj`). Both must be absolute and normalised.
 */
export function isInsideRoot(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
