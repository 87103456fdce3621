import { stem } from './stem.js';
import type { FileRole } from './file-role.js';
import type { QueryWords } from './name-coverage.js';

/**
 * How much a file's role scales a chunk's score: source first, the rest below it for the same
 * evidence but never dropped (a query that only a test or a doc answers still finds it). Chosen on
 * the retrieval evaluation (docs/indexer.md, Retrieval quality).
 */
// On this repository's history (where 40 % of the commits touch only tests or docs) 0.6 lost 0.007
// file R@10 against 0.7 and 0.8 won 0.006 but left a third more non-source slots in the top 10;
// generated and vendored copies repeat source outright, so they sit lower.
const weights: Record<FileRole, number> = {
  source: 1,
  test: 0.7,
  spec: 0.7,
  fixture: 0.6,
  benchmark: 0.7,
  generated: 0.6,
  vendored: 0.6,
  docs: 0.7,
};

/**
 * A role the query asks for is level with source but for a tie-break: for the same evidence the
 * implementation still comes first. On this repository's history 1 and 0.97 both gave file R@10
 * 0.939, with 0.311 and 0.291 of the top-10 slots non-source; 0.95 lost 0.007 R@10, 0.9 lost 0.014.
 */
const askedWeight = 0.97;

/** Words by which a query asks for a role itself: "the tests for the parser", "docs on sync". */
const askedFor: Array<[string[], FileRole[]]> = [
  [['test', 'tests', 'testing', 'spec', 'specs', 'e2e'], ['test', 'spec', 'fixture']],
  [['fixture', 'fixtures', 'snapshot', 'snapshots'], ['fixture']],
  [['doc', 'docs', 'documentation', 'documented', 'readme', 'guide', 'tutorial', 'changelog', 'md'], ['docs']],
  [['bench', 'benchmark', 'benchmarks', 'benchmarked'], ['benchmark']],
  [['generated', 'codegen'], ['generated']],
  [['vendor', 'vendored'], ['vendored']],
].map(([words, roles]) => [(words ?? []).map((word) => stem(word)), roles] as [string[], FileRole[]]);

/** The role weights for one query: a role the query asks for is not demoted (but for the tie-break). */
export function roleWeightsFor(query: QueryWords): (role: FileRole) => number {
  const asked = new Set<FileRole>();
  for (const [stems, roles] of askedFor) if (stems.some((stem) => query.stems.has(stem))) for (const role of roles) asked.add(role);
  return (role) => (asked.has(role) ? askedWeight : weights[role]);
}
