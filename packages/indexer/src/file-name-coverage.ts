import { type QueryWords, nameCoverage, nameParts } from './name-coverage.js';

/**
 * File-name coverage: how much of a file's name the query spells out. "run-tool-calls: plain
 * ToolDefinition type" is about `run-tool-calls.ts`, "the durability tests" about
 * `durability.test.ts`, "stores.md: lease expiry" and "README: links" about those files. It is
 * computed once per file and added to every chunk of that file (docs/indexer.md, Retrieval quality).
 */

/** Index-like file names say nothing; their folder names them (`tools/fs/index.ts` -> `fs`). */
const indexLike = /^(index|mod|main|__init__|lib)$/i;
/** Source-root folders say nothing either: `packages/tools/fs/src/index.ts` is named by `fs`. */
const sourceRoot = /^(src|lib|source)$/i;

/** The folders above a file, nearest first, without source-root folders. */
const namingFolders = (segments: string[]) => segments.slice(0, -1).reverse().filter((segment) => !sourceRoot.test(segment));

/**
 * The file name without its extensions and role suffix (`durability.test.ts` -> `durability`),
 * index-like names by their folder.
 */
export function fileStem(path: string): string {
  const segments = path.split('/');
  const stem = (segments.at(-1) ?? '').replace(/\..*$/, '');
  return indexLike.test(stem) ? (namingFolders(segments)[0] ?? stem) : stem;
}

/** The role suffix of a file name, `test` of `durability.test.ts`, `e2e` of `mcp.e2e.test.ts`. */
const roleSuffix = (base: string) => base.split('.').slice(1, -1).join('-');

/**
 * Words the query writes as file names: a word with an extension (`stores.md`, `run-plan.ts`), a
 * word in capitals (`README`, `BENCHMARKS`, `AGENTS`) or a kebab-case word (`run-tool-calls`), the
 * way such files are named. Kept as written (no lowercasing) and compared with the file's name and
 * its stem exactly, so `content-type` names `content-type.js` and nothing else.
 */
export function fileMentions(query: string): Set<string> {
  const mentions = new Set<string>();
  for (const [word] of query.matchAll(/[A-Za-z0-9_][\w.-]+\.[A-Za-z0-9]+|\b[A-Z][A-Z0-9_]{2,}\b|\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g)) mentions.add(word.replace(/[.]+$/, ''));
  return mentions;
}

/**
 * A file the query writes out by name counts twice, so its bonus equals that of a chunk whose own
 * name the query spells out (0.25 x 2 = 0.5 x 1). On this repository's history 1.5 and 2 both
 * took file R@10 from 0.925 to 0.936 (MRR 0.695 / 0.704; 3 gave 0.714); the doc-comment corpora
 * have no such queries and did not move.
 */
const mentionedFile = 2;

/** The query's mention of this file (its name or stem as the query writes it), if any. */
function mentionOf(base: string, query: QueryWords): string | undefined {
  if (query.fileNames.has(base)) return base;
  const stem = base.replace(/\.[^.]*$/, '');
  return query.fileNames.has(stem) ? stem : undefined;
}

/**
 * 0..1 for one file: the coverage of its stem when that has two parts or more — a one-word file
 * name (`values.js`, `map.js`) is a word any query may use (ramda lost 0.01 file R@10 counting
 * them) — or, for a one-word name, 1 when the query names a second word of it too.
 */
export function fileNameCoverage(path: string, query: QueryWords): number {
  const segments = path.split('/');
  const base = segments.at(-1) ?? '';
  const stem = fileStem(path);
  const parts = nameParts(stem);
  if (parts.length >= 2) return nameCoverage(stem, query);
  if (parts.length !== 1) return 0;
  // One word is a word any query may use: it counts with a second one the query names too — the
  // role suffix (`durability.test.ts` for "durability tests": a test, not every test file for
  // "cli tests") or the folder (a folder that repeats the name, `apps/cli/src/cli.ts`, is no
  // second word).
  const suffix = roleSuffix(base);
  if (suffix && nameCoverage(`${stem}-${suffix}`, query) === 1) return 1;
  const folder = namingFolders(segments).filter((segment) => segment.toLowerCase() !== stem.toLowerCase())[0];
  return folder && nameCoverage(`${folder}-${stem}`, query) === 1 ? 1 : 0;
}

/**
 * Whether a file the query mentions by a name other candidates share is the one meant: the one at
 * the root ("README" is the repository's README) or one whose folder the query names too ("server:
 * … README" is `packages/server/README.md`).
 */
function singledOut(path: string, query: QueryWords): boolean {
  const segments = path.split('/');
  if (segments.length === 1) return true;
  const folder = namingFolders(segments)[0];
  return folder !== undefined && nameCoverage(folder, query) === 1;
}

/**
 * File-name coverage of every candidate file (0..`mentionedFile`). A file the query writes out by
 * name gets `mentionedFile`; when several candidates have that name, only the one the query singles
 * out does, the others share it: "README" names none of ten packages' README.md files in particular.
 */
export function fileNameCoverages(paths: Iterable<string>, query: QueryWords): Map<string, number> {
  const coverages = new Map<string, number>();
  const mentioned = new Map<string, string[]>();
  for (const path of paths) {
    if (coverages.has(path)) continue;
    const mention = query.fileNames.size > 0 ? mentionOf(path.slice(path.lastIndexOf('/') + 1), query) : undefined;
    if (mention) mentioned.set(mention, [...(mentioned.get(mention) ?? []), path]);
    coverages.set(path, fileNameCoverage(path, query));
  }
  for (const files of mentioned.values()) {
    for (const path of files) {
      const mention = files.length === 1 || singledOut(path, query) ? mentionedFile : mentionedFile / files.length;
      coverages.set(path, Math.max(coverages.get(path) ?? 0, mention));
    }
  }
  return coverages;
}
