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
 * The file name without its last extension (`.d.ts` counts as one), so a role suffix stays a name
 * part: `durability.test.ts` -> `durability.test` (parts `durability`, `test`).
 */
export function fileStem(path: string): string {
  const segments = path.split('/');
  const stem = (segments.at(-1) ?? '').replace(/(\.d)?\.[^.]*$/, '');
  return indexLike.test(stem) ? (namingFolders(segments)[0] ?? stem) : stem;
}

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

/**
 * 0..2 for one file: `mentionedFile` when the query names it as a file (see `fileMentions`), else
 * the coverage of its stem when that has two parts or more — a one-word file name (`values.js`,
 * `map.js`) is a word any query may use (ramda lost 0.01 file R@10 counting them) — or, for a
 * one-word name, 1 when the query names its folder too (`docs/indexer.md` for "docs: indexer …").
 */
export function fileNameCoverage(path: string, query: QueryWords): number {
  const segments = path.split('/');
  const base = segments.at(-1) ?? '';
  if (query.fileNames.has(base) || query.fileNames.has(base.replace(/\.[^.]*$/, ''))) return mentionedFile;
  const stem = fileStem(path);
  const parts = nameParts(stem);
  if (parts.length >= 2) return nameCoverage(stem, query);
  // A folder that repeats the name (`apps/cli/src/cli.ts`, `modes/src/modes.ts`) is no second word.
  const folder = namingFolders(segments).filter((segment) => segment.toLowerCase() !== stem.toLowerCase())[0];
  if (parts.length === 1 && folder) return nameCoverage(`${folder}-${stem}`, query) === 1 ? 1 : 0;
  return 0;
}
