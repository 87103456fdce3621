import { resolve } from 'node:path';
import { canonicalizePath, isInsideRoot } from './workspace-path.js';

/**
 * The paths a permission rule is matched against: each path as given (made absolute) and as it
 * resolves through symlinks, so `link-src/a.ts` is judged as `src/a.ts` too and `src/up/README.md`
 * (with `src/up -> ..`) as `README.md`. Deny and ask need one match, allow needs all of them: the
 * stricter reading wins. A resolved form outside the workspace is left out: no file tool acts
 * there (each refuses a path that resolves outside, with its own message), and a link that leads
 * out is still deleted as a link. A path that cannot be resolved (a loop) keeps its given form.
 */
export async function pathsForRules(paths: readonly string[], cwd: string): Promise<string[]> {
  const forms = new Set<string>();
  for (const path of paths) {
    const given = resolve(cwd, path);
    forms.add(given);
    const resolved = await canonicalizePath(given).catch(() => undefined);
    if (resolved !== undefined && isInsideRoot(cwd, resolved)) forms.add(resolved);
  }
  return [...forms];
}
