// Retrieval-quality evaluation on real codebases: date-fns (its functions, and the whole package),
// lodash-es, ramda and zod from node_modules (dev dependencies of this package), fastify as
// published (fetched with npm pack; it ships its tests, docs and generated files), and this
// repository's own history (git-history.mjs). Queries are built without hand-labelling: for every
// declaration that has a doc comment, the query is the comment's summary (`@summary`, else the text
// before the first tag) with the declared identifier removed, and the relevant answer is that
// declaration (its file, and its first line for chunk level). The indexed copy has every `/** */`
// block blanked out (line numbers kept), so no system can find the query text itself.
// Run after a build (`npx tsup` in packages/indexer):
//   node packages/indexer/bench/eval-retrieval.mjs [--corpora zod,fastify] [--baseline-ref <git ref>]
//     [--quick] [--embeddings ollama/nomic-embed-text [--base-url http://127.0.0.1:11434/v1]] [--misses shipped]
// --baseline-ref builds the indexer's sources at that ref and measures it on the same corpora
// (the acceptance comparison); --quick skips the plain baselines and the line-window chunker.
// Prints one JSON document.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createIndex } from '../dist/index.js';
import { buildCorpus, dateFnsFullSource, dateFnsSource, fastifySource, lodashSource, ramdaSource, zodSource } from './corpus.mjs';
import { buildHistoryCorpus, pinnedCommit, repositoryRoot, unavailableReason } from './git-history.mjs';
import { judgedRole } from './roles.mjs';

const docBlock = /\/\*\*([\s\S]*?)\*\//g;
const declaration =
  /^\s*(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)|(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)|interface\s+([A-Za-z_$][\w$]*)|type\s+([A-Za-z_$][\w$]*)|(?:(?:public|private|protected|static|readonly|abstract|override|get|set|async)\s+)*([A-Za-z_$][\w$]*)\s*[(<?:])/;
const keywords = new Set(['if', 'for', 'while', 'return', 'switch', 'catch', 'case', 'else']);
const stopWords = new Set('a an and are as at be by can do does for from has have how i if in into is it its of on or that the their then there these this to was we what when where which who why will with you your'.split(' '));
const windowLines = 40;
const round = (value) => Number(value.toFixed(3));

/** The summary of a JSDoc block: its `@summary` tag, else the description before the first tag. */
function summaryOf(raw) {
  const lines = raw.split('\n').map((line) => line.replace(/^\s*\*\s?/, '').trim());
  const tagged = lines.find((line) => line.startsWith('@summary'));
  const firstTag = lines.findIndex((line) => line.startsWith('@'));
  // A block that starts with a tag (`@deprecated Use X`) has no description: it yields no query.
  const text = tagged ? tagged.slice('@summary'.length) : lines.slice(0, firstTag < 0 ? lines.length : firstTag).join(' ');
  return text
    .replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Queries from the original text of one file (the blanked copy is what gets indexed). */
function extractQueries(text, path) {
  const queries = [];
  for (const match of text.matchAll(docBlock)) {
    const endOffset = match.index + match[0].length;
    const rest = text.slice(endOffset);
    const skipped = rest.match(/^[ \t]*\n/);
    const firstLine = (skipped ? rest.slice(skipped[0].length) : rest).split('\n')[0] ?? '';
    const name = declaration.exec(firstLine)?.slice(1).find(Boolean);
    if (!name || keywords.has(name)) continue;
    const escaped = name.replace(/[$]/g, '\\$');
    const query = summaryOf(match[1]).replace(new RegExp(`\\b${escaped}\\b`, 'gi'), ' ').replace(/\s+/g, ' ').trim();
    if (query.split(' ').filter((word) => /[a-z]{3,}/i.test(word)).length < 3) continue;
    const line = text.slice(0, endOffset).split('\n').length + (skipped ? 1 : 0);
    queries.push({ query: query.slice(0, 300), path, line, name });
  }
  return queries;
}

const blankDocs = (text) => text.replace(docBlock, (block) => block.replace(/[^\n]/g, ''));
const codeFile = /\.[cm]?[jt]sx?$/;

/**
 * Build a blanked workspace for one source and its de-duplicated queries. Queries come from the
 * doc comments of source files only (the judge in roles.mjs): the task is finding the
 * implementation, and a test's or a doc page's comment is not one.
 */
function prepare(source) {
  const extracted = [];
  const texts = new Map();
  const roles = new Map();
  const corpus = buildCorpus({
    sources: [source],
    transform: (text, relativePath) => {
      const role = judgedRole(relativePath, text);
      roles.set(relativePath, role);
      if (!codeFile.test(relativePath)) {
        texts.set(relativePath, text);
        return text;
      }
      if (role === 'source') extracted.push(...extractQueries(text, relativePath));
      const blanked = blankDocs(text);
      texts.set(relativePath, blanked);
      return blanked;
    },
  });
  // A summary shared by several declarations (overloads, copies) has no single answer: drop it.
  const counts = new Map();
  for (const item of extracted) counts.set(item.query, (counts.get(item.query) ?? 0) + 1);
  const seen = new Set();
  const queries = extracted
    .filter((item) => counts.get(item.query) === 1 && !seen.has(`${item.path}:${item.line}`) && seen.add(`${item.path}:${item.line}`))
    .map(({ query, path, line, name }) => ({ query, name, targets: [{ path, lines: [line] }] }));
  return { corpus, texts, roles, queries };
}

/**
 * The plain baseline: FTS5 with its default `unicode61` tokenizer over 40-line windows, text only,
 * every query word OR-ed (FTS5 has no stop-word list, so neither does plain BM25). `stopWords`
 * drops the shipped design's stop words from the query first; `allWords` uses FTS5's own default
 * query semantics (every word required). Both are reported for context only.
 */
function plainBaseline(texts) {
  const db = new Database(':memory:');
  db.exec('create virtual table windows using fts5(path unindexed, start_line unindexed, end_line unindexed, text)');
  const insert = db.prepare('insert into windows(path, start_line, end_line, text) values (?, ?, ?, ?)');
  let windows = 0;
  db.transaction(() => {
    for (const [path, text] of texts) {
      const lines = text.split('\n');
      for (let start = 0; start < lines.length; start += windowLines) {
        const slice = lines.slice(start, start + windowLines).join('\n');
        if (!slice.trim()) continue;
        insert.run(path, start + 1, Math.min(start + windowLines, lines.length), slice);
        windows++;
      }
    }
  })();
  const statement = db.prepare('select path, start_line as startLine, end_line as endLine from windows where windows match ? order by bm25(windows) limit 50');
  return {
    windows,
    search(query, { stopWords: dropStopWords = false, allWords = false } = {}) {
      const terms = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !dropStopWords || !stopWords.has(word)))];
      return terms.length === 0 ? [] : statement.all(terms.map((term) => `"${term}"`).join(allWords ? ' ' : ' OR '));
    },
    close: () => db.close(),
  };
}

const chunkHit = (target, result) => result.path === target.path && target.lines.some((line) => result.startLine <= line && line <= result.endLine);

/**
 * recall@5, recall@10 and MRR (over the top 50) at file level and at chunk level; a query with
 * several answers (a commit's files) is answered by the first of them. Also the share of the
 * top-10 slots whose file the judge (roles.mjs) calls non-source, and how often such a file ranks
 * above the answer among the answered queries.
 */
function score(queries, resultLists, roles) {
  const fileRanks = [];
  const chunkRanks = [];
  let linesInTop5 = 0;
  let slots = 0;
  let nonSourceSlots = 0;
  let answered = 0;
  let nonSourceAbove = 0;
  resultLists.forEach((results, index) => {
    const { targets } = queries[index];
    const answers = new Set(targets.map((target) => target.path));
    const files = [...new Set(results.map((result) => result.path))];
    const fileRank = files.findIndex((path) => answers.has(path));
    fileRanks.push(fileRank);
    if (targets.some((target) => target.lines.length > 0)) chunkRanks.push(results.findIndex((result) => targets.some((target) => chunkHit(target, result))));
    linesInTop5 += results.slice(0, 5).reduce((sum, result) => sum + result.endLine - result.startLine + 1, 0);
    for (const result of results.slice(0, 10)) {
      slots++;
      if ((roles.get(result.path) ?? 'source') !== 'source') nonSourceSlots++;
    }
    if (fileRank >= 0) {
      answered++;
      if (files.slice(0, fileRank).some((path) => (roles.get(path) ?? 'source') !== 'source')) nonSourceAbove++;
    }
  });
  const metrics = (ranks) => ({
    recallAt5: round(ranks.filter((rank) => rank >= 0 && rank < 5).length / Math.max(ranks.length, 1)),
    recallAt10: round(ranks.filter((rank) => rank >= 0 && rank < 10).length / Math.max(ranks.length, 1)),
    mrr: round(ranks.reduce((sum, rank) => sum + (rank >= 0 ? 1 / (rank + 1) : 0), 0) / Math.max(ranks.length, 1)),
  });
  return {
    file: metrics(fileRanks),
    chunk: { ...metrics(chunkRanks), queries: chunkRanks.length, linesInTop5: Math.round(linesInTop5 / queries.length) },
    nonSourceShareTop10: round(nonSourceSlots / Math.max(slots, 1)),
    nonSourceAboveAnswer: round(nonSourceAbove / Math.max(answered, 1)),
  };
}

/**
 * Debugging aid (`--misses shipped`): file-level misses (top 10) on stderr: the file rank of the
 * best answer (-1 = not in the top 50 chunks), the answer files (up to four, with the judged role),
 * the query, and the top 3 results with their score parts.
 */
function printMisses(label, queries, resultLists, roles) {
  resultLists.forEach((results, index) => {
    const { targets, query, name } = queries[index];
    const files = [...new Set(results.map((result) => result.path))];
    const answers = new Set(targets.map((target) => target.path));
    const rank = files.findIndex((path) => answers.has(path));
    if (rank >= 0 && rank < 10) return;
    const parts = (result) => (result.scoreParts ? ` (${result.scoreParts.bm25}/${result.scoreParts.name} ${result.role ?? ''})` : '');
    const top = results.slice(0, 3).map((result) => `${result.path}:${result.startLine}-${result.endLine} ${result.symbol ?? ''}${parts(result)}`);
    const shown = targets.slice(0, 4).map((target) => `${target.path} [${roles.get(target.path) ?? 'source'}]`);
    const more = targets.length > 4 ? ` +${targets.length - 4}` : '';
    console.error(`[${label}] ${rank} ${name} | ${query.slice(0, 120)}\n    answers: ${shown.join(', ')}${more}\n    top: ${top.join(' ; ')}`);
  });
}

async function runIndex(createIndexFn, label, prepared, indexOptions) {
  const { corpus, queries, roles } = prepared;
  const index = await createIndexFn({ cwd: corpus.root, home: join(corpus.base, `home-${label}`), ...indexOptions });
  try {
    const sync = await index.sync();
    if (sync.embeddingError) throw new Error(`${label}: the embedding model failed: ${sync.embeddingError}`);
    const { chunks } = await index.stats();
    const results = [];
    const started = performance.now();
    for (const item of queries) results.push(await index.search(item.query, { limit: 50 }));
    const msPerQuery = round((performance.now() - started) / Math.max(queries.length, 1));
    if (options.misses === label) printMisses(label, queries, results, roles);
    return { chunks, msPerQuery, ...score(queries, results, roles) };
  } finally {
    index.close();
  }
}

function chunkOptions(chunking) {
  // EVAL_CHUNK_CHARS=3000 (and EVAL_CHUNK_MIN=800, else a 4.5th of it) tries another syntax-chunk budget.
  const maxChars = chunking === 'syntax' && process.env.EVAL_CHUNK_CHARS ? Number(process.env.EVAL_CHUNK_CHARS) : undefined;
  const minChars = maxChars ? Number(process.env.EVAL_CHUNK_MIN ?? Math.round(maxChars / 4.5)) : undefined;
  return { chunking, ...(maxChars ? { chunkSize: { maxChars, minChars } } : {}) };
}

function plainSystems(prepared) {
  const baseline = plainBaseline(prepared.texts);
  const run = (searchOptions) => ({ chunks: baseline.windows, ...score(prepared.queries, prepared.queries.map((item) => baseline.search(item.query, searchOptions)), prepared.roles) });
  try {
    return {
      plainBm25LineWindows40: run({}),
      // For context only.
      plainBm25LineWindows40StopWordsDropped: run({ stopWords: true }),
      plainBm25LineWindows40AllWordsRequired: run({ allWords: true }),
    };
  } finally {
    baseline.close();
  }
}

const notConfigured = 'not configured: pass --embeddings <provider/model> (e.g. ollama/nomic-embed-text) with an embedding server reachable';

async function evaluate(name, prepared) {
  const { corpus, queries, roles } = prepared;
  try {
    const systems = {};
    if (!options.quick) Object.assign(systems, plainSystems(prepared));
    systems.shippedBm25SyntaxChunks = await runIndex(createIndex, 'shipped', prepared, chunkOptions('syntax'));
    if (!options.quick) systems.shippedBm25LineWindows = await runIndex(createIndex, 'lines', prepared, chunkOptions('lines'));
    if (baseline) systems.baselineRef = { ref: options['baseline-ref'], ...(await runIndex(baseline.createIndex, 'baseline', prepared, chunkOptions('syntax'))) };
    if (embedding) {
      systems.hybrid = await runIndex(createIndex, 'hybrid', prepared, { ...chunkOptions('syntax'), embeddingModel: embedding.model });
    } else {
      systems.hybrid = notConfigured;
    }
    const nonSourceFiles = [...roles.values()].filter((role) => role !== 'source').length;
    const testFiles = [...roles.values()].filter((role) => role === 'test').length;
    // "A corpus with tests": a tenth of its files or more (date-fns has one test helper in _lib/).
    const withTests = testFiles >= corpus.files / 10;
    return {
      corpus: { name, files: corpus.files, lines: corpus.lines, bytes: corpus.bytes, nonSourceFiles, testFiles, withTests, ...(corpus.commit ? { commit: corpus.commit } : {}) },
      queries: queries.length,
      example: queries.find((item) => item.name === 'getDecade') ?? queries[0],
      systems,
      acceptance: acceptance(systems, withTests),
    };
  } finally {
    rmSync(corpus.base, { recursive: true, force: true });
  }
}

/**
 * Against the baseline ref (today's main): file R@10 and MRR at least as high everywhere; on a
 * corpus with tests, file R@10 up by 0.03 and the non-source share of the top 10 down by a third.
 * Plus the older tree-sitter-vs-line-windows check.
 */
function acceptance(systems, withTests) {
  const shipped = systems.shippedBm25SyntaxChunks;
  const result = {};
  const lines = systems.shippedBm25LineWindows;
  if (lines) result.syntaxBeatsLinesAtChunkLevel = shipped.chunk.recallAt10 > lines.chunk.recallAt10 && shipped.chunk.recallAt5 >= lines.chunk.recallAt5;
  const before = systems.baselineRef;
  if (!before) return result;
  result.fileRecallAt10Delta = round(shipped.file.recallAt10 - before.file.recallAt10);
  result.fileMrrDelta = round(shipped.file.mrr - before.file.mrr);
  result.noRegression = shipped.file.recallAt10 >= before.file.recallAt10 && shipped.file.mrr >= before.file.mrr;
  if (withTests) {
    result.nonSourceShareRatio = round(shipped.nonSourceShareTop10 / Math.max(before.nonSourceShareTop10, 1e-9));
    result.fileRecallAt10RisesBy003 = result.fileRecallAt10Delta >= 0.03;
    result.nonSourceShareFallsByAThird = shipped.nonSourceShareTop10 <= (2 / 3) * before.nonSourceShareTop10;
  }
  return result;
}

/** Build @cairn/indexer's sources at a git ref (cached by ref) so today's main can be measured in the same run. */
async function indexerAtRef(ref) {
  const root = repositoryRoot();
  if (!root) throw new Error('--baseline-ref needs a git checkout');
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const dir = join(packageDir, 'node_modules', '.cache', 'cairn-eval', `indexer-${commit.slice(0, 12)}`);
  const entry = join(dir, 'dist', 'index.js');
  if (!existsSync(entry)) {
    mkdirSync(dir, { recursive: true });
    const archive = join(dir, 'src.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', archive, commit, 'packages/indexer/src'], { cwd: root });
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    const { build } = await import('tsup');
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    // devDependencies too: a ref may import one at run time (chunk-worker-url.ts loads tsup from the sources).
    const external = [/^@cairn\//, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    const src = join(dir, 'packages/indexer/src');
    // Refs with parse workers (after 12b9f29) load dist/chunk-worker.js beside the entry.
    const entry = { index: join(src, 'index.ts'), ...(existsSync(join(src, 'chunk-worker.ts')) ? { 'chunk-worker': join(src, 'chunk-worker.ts') } : {}) };
    await build({ entry, outDir: join(dir, 'dist'), format: ['esm'], target: 'node20', dts: false, sourcemap: false, silent: true, config: false, external });
  }
  return import(pathToFileURL(entry).href);
}

/**
 * `--embeddings provider/model`: @cairn/sdk's resolver, the one `cairn index --embeddings` uses. The
 * SDK depends on this package, so it is not a dependency here: it is loaded from apps/bench.
 */
async function embeddingModelFor(spec) {
  const dir = join(repositoryRoot() ?? '', 'apps', 'bench', 'node_modules', '@cairn', 'sdk');
  let sdk;
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const entry = manifest.publishConfig?.exports?.['.']?.import ?? manifest.exports?.['.']?.import ?? manifest.main;
    sdk = await import(pathToFileURL(join(dir, entry)).href);
  } catch (error) {
    throw new Error(`--embeddings needs @cairn/sdk built in this checkout (pnpm --filter @cairn/sdk... build): ${error.message}`);
  }
  const model = sdk.resolveEmbeddingModel(spec, options['base-url'] ? { baseURL: options['base-url'] } : {});
  return { spec, model };
}

const { values: options } = parseArgs({
  options: {
    corpora: { type: 'string' },
    'baseline-ref': { type: 'string' },
    embeddings: { type: 'string' },
    'base-url': { type: 'string' },
    quick: { type: 'boolean', default: false },
    misses: { type: 'string' },
  },
});

const available = {
  'date-fns': () => ['date-fns (functions: ESM .js without locales and fp wrappers)', prepare(dateFnsSource())],
  'date-fns-full': () => ['date-fns (the whole ESM package, locales and fp wrappers included)', prepare(dateFnsFullSource())],
  lodash: () => ['lodash-es (.js)', prepare(lodashSource())],
  ramda: () => ['ramda (es/, .js)', prepare(ramdaSource())],
  zod: () => ['zod (src, .ts, tests included)', prepare(zodSource())],
  fastify: () => ['fastify 5.12.8 (the published package: lib, types, tests, docs, examples, generated validators)', prepare(fastifySource())],
  'cairn-history': () => [`cairn (this repository at ${pinnedCommit}; queries = commit subjects as written, answers = the files each touched)`, buildHistoryCorpus()],
};

const started = performance.now();
const chosen = (options.corpora ?? process.env.EVAL_CORPORA ?? Object.keys(available).join(',')).split(',');
for (const name of chosen) if (!available[name]) throw new Error(`Unknown corpus ${name}: choose from ${Object.keys(available).join(', ')}`);
const baseline = options['baseline-ref'] ? await indexerAtRef(options['baseline-ref']) : undefined;
const embedding = options.embeddings ? await embeddingModelFor(options.embeddings) : undefined;
const corpora = [];
const skipped = [];
for (const name of chosen) {
  const reason = name === 'cairn-history' ? unavailableReason() : undefined;
  if (reason) {
    skipped.push({ corpus: name, reason });
    continue;
  }
  const [label, prepared] = available[name]();
  corpora.push({ id: name, ...(await evaluate(label, prepared)) });
}
console.log(JSON.stringify({
  method: 'doc corpora: query = doc-comment summary of a source declaration (identifier removed), relevant = that declaration, doc comments blanked in the indexed copy; cairn-history: query = commit subject, relevant = the files the commit touched that still exist (chunk level: a chunk holding a line the commit added); file level = distinct files in rank order; chunk level = a returned line range contains the answer line; MRR over the top 50; non-source share = top-10 slots whose file bench/roles.mjs judges test/fixture/benchmark/generated/vendored/docs',
  ...(embedding ? { embeddings: embedding.spec } : {}),
  corpora,
  ...(skipped.length ? { skipped } : {}),
  seconds: round((performance.now() - started) / 1000),
}, null, 2));
