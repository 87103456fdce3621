// Indexer benchmark (BM25 only, plus vector-query latency with a local 384-d hashed model):
// full index time, one-file re-index, query latency, size on disk. Run after `pnpm build`:
//   node packages/indexer/bench/index-bench.mjs
import { appendFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createIndex } from '../dist/index.js';
import { buildCorpus } from './corpus.mjs';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (value, digits = 2) => Number(value.toFixed(digits));

function hashedModel(dimensions = 384) {
  const embed = (text) => {
    const vector = new Array(dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let hash = 2166136261;
      for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
      vector[Math.abs(hash) % dimensions] += 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  return { specificationVersion: 'v1', provider: 'bench', modelId: 'hashed', dimensions, maxEmbeddingsPerCall: 256, doEmbed: async ({ values }) => ({ embeddings: values.map(embed) }) };
}

const queries = [
  'parse string schema', 'safeParse', 'ZodError issues', 'refine custom validation', 'discriminated union', 'optional nullable default',
  'array minimum length', 'Promise resolve type', 'HTMLElement addEventListener', 'Intl DateTimeFormat options', 'readonly array map',
  'json schema conversion', 'regex email validation', 'coerce number', 'transform pipe output', 'record key value', 'tuple rest element',
  'error message locale', 'ArrayBuffer byteLength', 'Symbol iterator', 'string template literal', 'object strict passthrough', 'brand type',
  'lazy recursive schema', 'union options', 'checks min max', 'date parse invalid', 'bigint', 'WeakMap', 'Reflect ownKeys',
];

const corpus = buildCorpus();
const result = { corpus: { description: 'zod src (TypeScript) + typescript/lib *.d.ts under 1 MiB', files: corpus.files, lines: corpus.lines, megabytes: round(corpus.bytes / 1e6) } };
try {
  // Parsing on the calling thread (parseWorkers: 0, as before the worker pool), same corpus, own home.
  const sequentialIndex = await createIndex({ cwd: corpus.root, home: join(corpus.base, 'home-sequential'), parseWorkers: 0 });
  let started = performance.now();
  const sequentialSync = await sequentialIndex.sync();
  const sequentialSeconds = (performance.now() - started) / 1000;
  sequentialIndex.close();

  const index = await createIndex({ cwd: corpus.root, home: corpus.home });
  started = performance.now();
  const sync = await index.sync();
  const fullSeconds = (performance.now() - started) / 1000;
  const stats = await index.stats();
  result.fullIndex = {
    seconds: round(fullSeconds), filesPerSecond: round(corpus.files / fullSeconds, 0), linesPerSecond: round(corpus.lines / fullSeconds, 0), chunks: sync.chunks, megabytesOnDisk: round(stats.bytesOnDisk / 1e6),
    parseWorkers: availableParallelism(), sequentialSeconds: round(sequentialSeconds), sequentialChunks: sequentialSync.chunks, speedup: round(sequentialSeconds / fullSeconds),
  };

  started = performance.now();
  await index.sync();
  result.noopSyncMs = round(performance.now() - started, 1);

  // One-file re-index through updateFiles (what the agent's edit tools call): a median-sized file
  // of the corpus and the largest zod file.
  const { readFileSync, readdirSync } = await import('node:fs');
  const zodFiles = readdirSync(join(corpus.root, 'zod'), { recursive: true }).filter((path) => String(path).endsWith('.ts')).map((path) => `zod/${path}`);
  const bySize = zodFiles.map((path) => ({ path, lines: readFileSync(join(corpus.root, path), 'utf8').split('\n').length })).sort((a, b) => a.lines - b.lines);
  const median = bySize[Math.floor(bySize.length / 2)];
  result.oneFileReindex = {};
  for (const [label, target] of [['medianFile', median.path], ['largestFile', 'zod/v4/classic/schemas.ts']]) {
    const reindex = [];
    for (let round_ = 0; round_ < 10; round_++) {
      appendFileSync(join(corpus.root, target), `\nexport function benchAddedFunction${round_}() { return ${round_}; }\n`);
      started = performance.now();
      await index.updateFiles([target]);
      reindex.push(performance.now() - started);
    }
    const found = await index.search('benchAddedFunction9');
    result.oneFileReindex[label] = { file: target, lines: readFileSync(join(corpus.root, target), 'utf8').split('\n').length, p50Ms: round(percentile(reindex, 50), 1), maxMs: round(Math.max(...reindex), 1), foundAfterUpdate: found.some((hit) => hit.path === target) };
  }
  appendFileSync(join(corpus.root, 'zod/v4/core/util.ts'), '\nexport const benchMarker = 1;\n');
  started = performance.now();
  const oneChanged = await index.sync();
  result.syncAfterOneEditMs = round(performance.now() - started, 1);
  result.syncAfterOneEditIndexedFiles = oneChanged.indexedFiles;

  const latencies = [];
  for (let pass = 0; pass < 5; pass++) for (const query of queries) {
    started = performance.now();
    await index.search(query, { limit: 10 });
    latencies.push(performance.now() - started);
  }
  result.queryBm25 = { queries: latencies.length, p50Ms: round(percentile(latencies, 50)), p95Ms: round(percentile(latencies, 95)) };
  index.close();

  // Vectors: same corpus, a local 384-d model (hashed bag of words) so only the storage and KNN
  // cost is measured, not a provider's latency.
  const vectorIndex = await createIndex({ cwd: corpus.root, home: join(corpus.base, 'home-vectors'), embeddingModel: hashedModel() });
  started = performance.now();
  const vectorSync = await vectorIndex.sync();
  const vectorSeconds = (performance.now() - started) / 1000;
  const fused = [];
  for (let pass = 0; pass < 3; pass++) for (const query of queries) {
    started = performance.now();
    await vectorIndex.search(query, { limit: 10 });
    fused.push(performance.now() - started);
  }
  const vectorStats = await vectorIndex.stats();
  result.vectors = { dimensions: 384, vectors: vectorStats.vectors, indexSecondsIncludingLocalEmbedding: round(vectorSeconds), embedded: vectorSync.embedded, queryFusedP50Ms: round(percentile(fused, 50)), queryFusedP95Ms: round(percentile(fused, 95)), megabytesOnDisk: round(vectorStats.bytesOnDisk / 1e6) };
  vectorIndex.close();
} finally {
  rmSync(corpus.base, { recursive: true, force: true });
}
console.log(JSON.stringify(result, null, 2));
