// Markdown tables from eval-retrieval.mjs's JSON (stdin or a file argument): one row per corpus and
// system, the before/after comparison when the run had --baseline-ref.
//   node packages/indexer/bench/eval-retrieval.mjs --baseline-ref <ref> | node packages/indexer/bench/retrieval-table.mjs
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(process.argv[2] ?? 0, 'utf8'));
const systemNames = {
  plainBm25LineWindows40: 'plain BM25, 40-line windows',
  shippedBm25SyntaxChunks: 'shipped',
  shippedBm25LineWindows: 'shipped, 60-line windows',
  baselineRef: 'baseline ref',
  hybrid: 'hybrid (BM25 + vectors)',
};
const row = (cells) => `| ${cells.join(' | ')} |`;

const lines = [row(['corpus', 'system', 'file R@5', 'file R@10', 'file MRR', 'chunk R@5', 'chunk R@10', 'chunk MRR', 'non-source top-10 share', 'non-source above answer'])];
lines.push(row(Array(10).fill('---')));
for (const corpus of input.corpora) {
  for (const [key, label] of Object.entries(systemNames)) {
    const system = corpus.systems[key];
    if (!system || typeof system === 'string') continue;
    const name = key === 'baselineRef' ? `${label} ${system.ref}` : label;
    lines.push(row([corpus.id, name, system.file.recallAt5, system.file.recallAt10, system.file.mrr, system.chunk.recallAt5, system.chunk.recallAt10, system.chunk.mrr, system.nonSourceShareTop10, system.nonSourceAboveAnswer]));
  }
}
console.log(lines.join('\n'));

const compared = input.corpora.filter((corpus) => corpus.systems.baselineRef);
if (compared.length > 0) {
  console.log('');
  console.log(row(['corpus', 'queries', 'file R@10 before → after', 'file MRR before → after', 'non-source share before → after', 'no regression', 'R@10 +0.03', 'share −⅓']));
  console.log(row(Array(8).fill('---')));
  for (const corpus of compared) {
    const before = corpus.systems.baselineRef;
    const after = corpus.systems.shippedBm25SyntaxChunks;
    const { acceptance } = corpus;
    const yes = (value) => (value === undefined ? '— (no tests)' : value ? 'yes' : '**no**');
    console.log(row([corpus.id, corpus.queries, `${before.file.recallAt10} → ${after.file.recallAt10}`, `${before.file.mrr} → ${after.file.mrr}`, `${before.nonSourceShareTop10} → ${after.nonSourceShareTop10}`, yes(acceptance.noRegression), yes(acceptance.fileRecallAt10RisesBy003), yes(acceptance.nonSourceShareFallsByAThird)]));
  }
}
