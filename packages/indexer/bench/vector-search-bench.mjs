// `cairn search` on a vector index of a ~100k-line tree (issue 19 target: p50 < 30 ms for the query
// itself, with the embedding server local). The index is built by `cairn index --embeddings` through
// the real openai SDK against the deterministic embedding server of `@cairn/core/testing`
// (1 536-d vectors, the size of text-embedding-3-small). Measured:
// - in process: `index.search()` (query embedding over HTTP + BM25 + KNN + fusion), p50 / p95, beside
//   the same index searched without a model (keyword only) and one embedding request alone;
// - whole process: `cairn search --embeddings …` spawn to exit, beside `cairn search` keyword-only.
// Needs the built packages (core, provider-openai, indexer, sdk, cli):
//   node packages/indexer/bench/vector-search-bench.mjs
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFakeEmbeddingServer } from '@cairn/core/testing';
import { createOpenAICompatible } from '../../providers/openai/dist/index.js';
import { createIndex } from '../dist/index.js';
import { buildCorpus } from './corpus.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 41);
const processRounds = Number(process.env.BENCH_PROCESS_ROUNDS ?? 9);
// The server gives each model its real size: text-embedding-3-small 1 536, nomic-embed-text 768.
const model = process.env.BENCH_EMBEDDING_MODEL ?? 'text-embedding-3-small';
const cliBin = fileURLToPath(new URL('../../../apps/cli/dist/bin.js', import.meta.url));
if (!existsSync(cliBin)) throw new Error(`${cliBin} is missing: build the CLI first (cd apps/cli && pnpm exec tsup)`);

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const round = (value, digits = 1) => Number(value.toFixed(digits));
const queries = [
  'parse string schema', 'safeParse', 'ZodError issues', 'refine custom validation', 'discriminated union', 'optional nullable default',
  'array minimum length', 'Promise resolve type', 'HTMLElement addEventListener', 'Intl DateTimeFormat options', 'readonly array map',
  'json schema conversion', 'regex email validation', 'coerce number', 'transform pipe output', 'record key value', 'tuple rest element',
];

function run(args, cwd, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cliBin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - started, out }) : reject(new Error(`cairn ${args.join(' ')} exited ${code}: ${err.trim()}`))));
  });
}

async function timeSearches(index) {
  for (const query of queries.slice(0, 3)) await index.search(query); // warm the page cache and the HTTP connection
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    await index.search(queries[round % queries.length], { limit: 10 });
    times.push(performance.now() - started);
  }
  return { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };
}

const corpus = buildCorpus();
const server = await startFakeEmbeddingServer();
const env = { ...process.env, CAIRN_HOME: corpus.home, HOME: corpus.home, NO_COLOR: '1' };
for (const key of Object.keys(env)) if (/^(OPENAI|OLLAMA|GEMINI|GOOGLE)_/.test(key) || key === 'NODE_OPTIONS') delete env[key];
const flags = ['--embeddings', `openai/${model}`, '--embeddings-base-url', `${server.url}/v1`];
const result = { benchmark: 'vector-search', tree: { files: corpus.files, lines: corpus.lines, megabytes: round(corpus.bytes / 1e6) }, target: 'cairn search on a vector index at 100k lines: p50 < 30 ms (query time, local embedding server)' };
try {
  let started = performance.now();
  const indexed = JSON.parse((await run(['index', '--cwd', corpus.root, '--json', ...flags], corpus.root, env)).out);
  result.index = { seconds: round((performance.now() - started) / 1000), chunks: indexed.totalChunks, vectors: indexed.vectors, model, embeddingRequests: server.requests };

  const embeddingModel = createOpenAICompatible({ id: 'openai', baseURL: `${server.url}/v1` }).embeddingModel(model);
  const withVectors = await createIndex({ cwd: corpus.root, home: corpus.home, embeddingModel });
  await withVectors.sync();
  result.inProcess = { hybrid: await timeSearches(withVectors) };
  withVectors.close();
  const keywordOnly = await createIndex({ cwd: corpus.root, home: corpus.home });
  result.inProcess.keywordOnly = await timeSearches(keywordOnly);
  keywordOnly.close();
  const embedTimes = [];
  for (let round = 0; round < rounds; round++) {
    started = performance.now();
    await embeddingModel.doEmbed({ values: [queries[round % queries.length]] });
    embedTimes.push(performance.now() - started);
  }
  result.inProcess.queryEmbeddingP50Ms = round(percentile(embedTimes, 50));

  const processTimes = { hybrid: [], keywordOnly: [] };
  for (let round = 0; round < processRounds; round++) {
    const query = queries[round % queries.length];
    processTimes.hybrid.push((await run(['search', query, '--cwd', corpus.root, '--json', ...flags], corpus.root, env)).ms);
    processTimes.keywordOnly.push((await run(['search', query, '--cwd', corpus.root, '--json'], corpus.root, env)).ms);
  }
  result.wholeProcess = {
    hybridP50Ms: round(percentile(processTimes.hybrid, 50)),
    keywordOnlyP50Ms: round(percentile(processTimes.keywordOnly, 50)),
    ratio: round(percentile(processTimes.hybrid, 50) / percentile(processTimes.keywordOnly, 50), 2),
  };
  result.met = result.inProcess.hybrid.p50Ms < 30;
} finally {
  await server.close();
  rmSync(corpus.base, { recursive: true, force: true });
}
const line = JSON.stringify(result);
console.log(line);
if (process.env.BENCH_OUTPUT) appendFileSync(process.env.BENCH_OUTPUT, `${line}\n`);
