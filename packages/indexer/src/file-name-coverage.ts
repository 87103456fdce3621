import { type QueryWords, nameCoverage, nameParts } from './name-coverage.js';

/**
 * File-name coverage: how much of a file's name the query spells out. "run-tool-calls: plain
 * ToolDefinition type" is about `run-tool-calls.ts`, "the durability tests" about
 * `durability.test.ts`, "stores.md: lease expiry" and "README: links" about those files. It is
 * computed once per file and added to every chunk of that file (docs/indexer.md, Retrieval quality).
 */

/** Index-like file names say nothing; their folder names them (`tools/fs/index.ts` -> `fs`). */
const indexLike = /^(index|mod|main|__init__|lib)$/i;

/**
 * The file name without its last extension (`.d.ts` counts as one), so a role suffix stays a name
 * part: `durability.test.ts` -> `durability.test` (parts `durability`, `test`).
 */
export function fileStem(path: string): string {
  const segments = path.split('/');
  const stem = (segments.at(-1) ?? '').replace(/(\.d)?\.[^.]*$/, '');
  return indexLike.test(stem) && segments.length > 1 ? (segments.at(-2) ?? stem) : stem;
}

/**
 * Words the query writes as file names: a word with an extension (`stores.md`, `run-plan.ts`) or
 * a word in capitals (`README`, `BENCHMARKS`, `AGENTS`), the way such files are named. Kept as
 * written (no lowercasing), compared with the file's name and its stem exactly.
 */
export function fileMentions(query: string): Set<string> {
  const mentions = new Set<string>();
  for (const [word] of query.matchAll(/[A-Za-z0-9_][\w.-]+\.[A-Za-z0-9]+|\b[A-Z][A-Z0-9_]{2,}\b/g)) mentions.add(word.replace(/[.]+$/, ''));
  return mentions;
}

/**
 * 0..1 for one file: 1 when the query names it as a file (see `fileMentions`), else the coverage of
 * its stem when that has two parts or more — a one-word file name (`values.js`, `map.js`) is a word
 * any query may use (ramda lost 0.01 file R@10 counting them) — or, for a one-word name, of its
 * folder and name together when the query names both (`docs/indexer.md` for "docs: indexer …").
 */
export function fileNameCoverage(path: string, query: QueryWords): number {
  const segments = path.split('/');
  const base = segments.at(-1) ?? '';
  if (query.fileNames.has(base) || query.fileNames.has(base.replace(/\.[^.]*$/, ''))) return 1;
  const stem = fileStem(path);
  const parts = nameParts(stem);
  if (parts.length >= 2) return nameCoverage(stem, query);
  const folder = indexLike.test(base.replace(/\..*$/, '')) ? segments.at(-3) : segments.at(-2);
  if (parts.length === 1 && folder) return nameCoverage(`${folder}-${stem}`, query) === 1 ? 1 : 0;
  return 0;
}
