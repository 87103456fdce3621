// Retrieval-quality evaluation on zod's sources. Queries come from doc comments: for every
// function / class / method / const with a JSDoc block, the query is the comment text with the
// declared identifier removed, and the relevant answer is the declaration's file and line. The
// indexed copy has every JSDoc block blanked out (line numbers kept), so no system can simply find
// the query text itself: it must match the code. Run after `pnpm build`:
//   node packages/indexer/bench/eval-retrieval.mjs
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createIndex } from '../dist/index.js';
import { buildCorpus } from './corpus.mjs';

const docBlock = /\/\*\*([\s\S]*?)\*\//g;
const declaration =
  /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)|(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)|interface\s+([A-Za-z_$][\w$]*)|type\s+([A-Za-z_$][\w$]*)|(?:(?:public|private|protected|static|readonly|abstract|override|get|set|async)\s+)*([A-Za-z_$][\w$]*)\s*[(<?:])/;
const stopWords = new Set('a an and are as at be by can do does for from has have how i if in into is it its of on or that the their then there these this to was we what when where which who why will with you your'.split(' '));

function cleanDoc(raw) {
  return raw
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .filter((line) => !/^@(example|see|deprecated|internal)/.test(line.trim()))
    .join(' ')
    .replace(/\{@link\s+([^}]+)\}/g, '$1')
    .replace(/@\w+/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Queries from the original sources; the blanked copy is what gets indexed. */
function extractQueries(text, path) {
  const queries = [];
  for (const match of text.matchAll(docBlock)) {
    const endOffset = match.index + match[0].length;
    const after = text.slice(endOffset).replace(/^[ \t]*\n/, '');
    const firstLine = after.split('\n')[0] ?? '';
    const found = declaration.exec(firstLine);
    const name = found?.slice(1).find(Boolean);
    if (!name || ['if', 'for', 'while', 'return', 'switch'].includes(name)) continue;
    const escaped = name.replace(/[$]/g, '\\$');
    const doc = cleanDoc(match[1]).replace(new RegExp(`\\b${escaped}\\b`, 'gi'), ' ').replace(/\s+/g, ' ').trim();
    if (doc.split(' ').filter((word) => /[a-z]{3,}/i.test(word)).length < 4) continue;
    const line = text.slice(0, endOffset).split('\n').length + (text.slice(endOffset).match(/^[ \t]*\n/) ? 1 : 0);
    queries.push({ query: doc.slice(0, 300), path, line, name });
  }
  return queries;
}

const blankDocs = (text) => text.replace(docBlock, (block) => block.replace(/[^\n]/g, ''));

const allQueries = [];
const corpus = buildCorpus({
  typescriptLib: false,
  transform: (text, relativePath) => {
    if (relativePath.endsWith('.ts')) allQueries.push(...extractQueries(text, `zod/${relativePath}`));
    return blankDocs(text);
  },
});
const seen = new Set();
const queries = allQueries.filter((item) => !seen.has(item.query) && seen.add(item.query));

function words(query) {
  return [...new Set((query.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length >= 3 && !stopWords.has(word)))];
}

const files = [...new Set(queries.map((item) => item.path))];
const allFiles = (await import('node:fs')).readdirSync(join(corpus.root, 'zod'), { recursive: true }).filter((path) => /\.(ts|js)$/.test(String(path))).map((path) => `zod/${path}`);
const fileTexts = new Map(allFiles.map((path) => [path, readFileSync(join(corpus.root, path), 'utf8')]));
void files;

// Baseline 1, "grep": rank files by how many distinct query words occur in them (substring match,
// case-insensitive), ties by total occurrences.
function grepBaseline(query) {
  const terms = words(query);
  const scored = [];
  for (const [path, text] of fileTexts) {
    const lower = text.toLowerCase();
    let distinct = 0;
    let total = 0;
    for (const term of terms) {
      const count = lower.split(term).length - 1;
      if (count > 0) distinct++;
      total += count;
    }
    if (distinct > 0) scored.push({ path, distinct, total });
  }
  return scored.sort((a, b) => b.distinct - a.distinct || b.total - a.total).map((item) => item.path);
}

// Baseline 2, "file BM25": SQLite FTS5 with its default unicode61 tokenizer over whole files, so
// `safeParseAsync` stays one token and no identifier is split.
const plain = new Database(':memory:');
plain.exec('create virtual table files using fts5(path unindexed, text)');
const insert = plain.prepare('insert into files(path, text) values (?, ?)');
for (const [path, text] of fileTexts) insert.run(path, text);
const plainSearch = plain.prepare('select path from files where files match ? order by bm25(files) limit 50');
function fileBm25Baseline(query) {
  const terms = words(query);
  if (terms.length === 0) return [];
  return plainSearch.all(terms.map((term) => `"${term}"`).join(' OR ')).map((row) => row.path);
}

function fileMetrics(rankings) {
  const at = (k) => rankings.filter((ranking, index) => ranking.slice(0, k).includes(queries[index].path)).length / queries.length;
  const mrr = rankings.reduce((sum, ranking, index) => {
    const rank = ranking.indexOf(queries[index].path);
    return sum + (rank >= 0 && rank < 10 ? 1 / (rank + 1) : 0);
  }, 0) / queries.length;
  return { recallAt1: round(at(1)), recallAt5: round(at(5)), recallAt10: round(at(10)), mrrAt10: round(mrr) };
}
const round = (value) => Number(value.toFixed(3));

async function chunkSystem(chunking, chunkSize) {
  const index = await createIndex({ cwd: corpus.root, home: join(corpus.base, `home-${chunking}-${chunkSize?.maxChars ?? 'default'}`), chunking, ...(chunkSize ? { chunkSize } : {}) });
  await index.sync();
  const stats = await index.stats();
  const fileRankings = [];
  let chunkHits1 = 0;
  let chunkHits5 = 0;
  let chunkHits10 = 0;
  let returnedLines = 0;
  for (const item of queries) {
    const results = await index.search(item.query, { limit: 50 });
    const distinct = [...new Set(results.map((result) => result.path))];
    fileRankings.push(distinct);
    const rank = results.findIndex((result) => result.path === item.path && result.startLine <= item.line && item.line <= result.endLine);
    if (rank === 0) chunkHits1++;
    if (rank >= 0 && rank < 5) chunkHits5++;
    if (rank >= 0 && rank < 10) chunkHits10++;
    returnedLines += results.slice(0, 5).reduce((sum, result) => sum + result.endLine - result.startLine + 1, 0);
  }
  index.close();
  return {
    file: fileMetrics(fileRankings),
    chunk: { hitAt1: round(chunkHits1 / queries.length), hitAt5: round(chunkHits5 / queries.length), hitAt10: round(chunkHits10 / queries.length), linesInTop5: Math.round(returnedLines / queries.length) },
    chunks: stats.chunks,
  };
}

try {
  const grep = fileMetrics(queries.map((item) => grepBaseline(item.query)));
  const fileBm25 = fileMetrics(queries.map((item) => fileBm25Baseline(item.query)));
  const shipped = await chunkSystem('syntax');
  const lineWindows = await chunkSystem('lines');
  const sizes = process.env.EVAL_SIZES ? await Promise.all(process.env.EVAL_SIZES.split(',').map(async (size) => [size, await chunkSystem('syntax', { maxChars: Number(size), minChars: Math.round(Number(size) / 4) })])) : [];
  console.log(JSON.stringify({
    corpus: { description: 'zod src, JSDoc blocks blanked in the indexed copy', files: corpus.files, lines: corpus.lines },
    queries: queries.length,
    example: queries[0],
    fileLevel: { grepKeywordBaseline: grep, fileBm25PlainTokensBaseline: fileBm25, shippedSyntaxChunks: shipped.file, shippedLineWindows: lineWindows.file },
    sizes: Object.fromEntries(sizes),
    chunkLevel: { syntaxChunks: { ...shipped.chunk, chunks: shipped.chunks }, lineWindows60: { ...lineWindows.chunk, chunks: lineWindows.chunks } },
  }, null, 2));
} finally {
  plain.close();
  rmSync(corpus.base, { recursive: true, force: true });
}
