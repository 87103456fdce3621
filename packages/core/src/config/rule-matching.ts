import type picomatchFactory from 'picomatch';
import { lazyRequire } from '../util/lazy-require.js';

const loadPicomatch = lazyRequire<typeof picomatchFactory>('picomatch');
import type { WorkspaceRule } from './rules-loader.js';

/**
 * Glob rules whose globs match one of `paths` (workspace-relative, POSIX). A glob without a slash
 * matches at any depth (`*.ts` covers `src/a.ts`), as in Cursor and .gitignore.
 */
export function globRulesFor(rules: readonly WorkspaceRule[], paths: readonly string[]): WorkspaceRule[] {
  if (paths.length === 0) return [];
  return rules.filter((rule) => {
    if (rule.kind !== 'glob') return false;
    const picomatch = loadPicomatch();
    const matchers = rule.globs.map((glob) => picomatch(glob.replace(/^\.\//, ''), { dot: true, basename: !glob.includes('/') }));
    return paths.some((path) => matchers.some((matches) => matches(path)));
  });
}

/** Manual rules the user named with `@name` (or `@path`) in the query. */
export function mentionedRules(rules: readonly WorkspaceRule[], query: string): WorkspaceRule[] {
  const mentions = new Set([...query.matchAll(/@([\w./-]+)/g)].map((match) => match[1]?.replace(/[.,;:!?)]+$/, '') ?? ''));
  return rules.filter((rule) => rule.kind !== 'always' && (mentions.has(rule.name) || mentions.has(rule.path)));
}

/**
 * Path-like words of a user query (`src/app.ts`, `./lib/x.py`, `README.md`, `` `pkg/util.go` ``), for
 * deciding which glob rules are in play before any tool ran.
 */
export function pathsMentioned(query: string): string[] {
  const found = new Set<string>();
  for (const match of query.matchAll(/[\w@][\w@./-]*\.[A-Za-z0-9]{1,10}\b|[\w@.-]+(?:\/[\w@.-]+)+/g)) {
    const word = match[0].replace(/^\.\//, '').replace(/[.,;:]+$/, '');
    if (word && !/^https?:/i.test(word) && !word.includes('://')) found.add(word);
  }
  return [...found];
}
