// `pnpm bench`: runs every benchmark of the repository (after `pnpm build`), one at a time, and
// writes BENCHMARKS.md with the machine, the command and each result. A benchmark that fails is
// reported as failed, and the command exits non-zero.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { renderReport } from './render-report.mjs';

const root = new URL('../../../', import.meta.url).pathname;
const benchmarks = [
  { name: 'framework-overhead', script: 'apps/bench/src/framework-overhead.mjs' },
  { name: 'openai-loop', script: 'apps/bench/src/openai-loop.mjs' },
  { name: 'cli-startup', script: 'apps/bench/src/cli-startup.mjs' },
  { name: 'store-step-cost', script: 'apps/bench/src/store-step-cost.mjs' },
  { name: 'compaction-long-run', script: 'apps/bench/src/compaction-long-run.mjs' },
  { name: 'store-sqlite-run-events', script: 'apps/bench/src/store-run-events.mjs', args: ['--store', 'sqlite'] },
  { name: 'store-jsonl-run-events', script: 'apps/bench/src/store-run-events.mjs', args: ['--store', 'jsonl'] },
  { name: 'store-postgres', script: 'apps/bench/src/store-postgres.mjs' },
  { name: 'workers-throughput', script: 'apps/bench/src/workers-throughput.mjs' },
  { name: 'server-sse', script: 'apps/bench/src/server-sse.mjs' },
  { name: 'store-resume', script: 'packages/stores/sqlite/bench/resume.bench.mjs' },
  { name: 'cache-stability', script: 'packages/modes/bench/cache-stability.bench.mjs', args: ['--json'] },
  { name: 'indexer', script: 'packages/indexer/bench/index-bench.mjs' },
  // Today's main before issue 19's ranking, measured in the same run (the indexer built at that commit).
  { name: 'indexer-retrieval-eval', script: 'packages/indexer/bench/eval-retrieval.mjs', args: ['--baseline-ref', '12b9f29'] },
  { name: 'cairn-search-process', script: 'packages/indexer/bench/search-process-bench.mjs' },
  { name: 'vector-search', script: 'packages/indexer/bench/vector-search-bench.mjs' },
  { name: 'grep-vs-ripgrep', script: 'packages/tools/search/bench/grep-bench.mjs' },
  { name: 'diagnostics', script: 'apps/bench/src/diagnostics.mjs' },
];
const only = process.argv.slice(2);
const results = [];
let failures = 0;
for (const benchmark of benchmarks) {
  if (only.length && !only.includes(benchmark.name)) continue;
  const path = join(root, benchmark.script);
  if (!existsSync(path)) {
    results.push({ ...benchmark, status: 'missing' });
    continue;
  }
  process.stderr.write(`bench: ${benchmark.name}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [path, ...(benchmark.args ?? [])], { cwd: join(path, '..'), encoding: 'utf8', timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  const parsed = parseResults(run.stdout ?? '');
  if (run.status !== 0 || parsed.length === 0) {
    failures++;
    results.push({ ...benchmark, status: 'failed', error: (run.stderr || run.error?.message || '').trim().split('\n').slice(-5).join('\n') });
  } else {
    results.push({ ...benchmark, status: 'ok', seconds: Math.round((Date.now() - started) / 100) / 10, results: parsed });
  }
}
/** A script prints one JSON document (possibly pretty-printed) or one JSON object per line. */
function parseResults(stdout) {
  try {
    const whole = JSON.parse(stdout);
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    return stdout.split('\n').filter((line) => line.trim().startsWith('{')).flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
  }
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString().slice(0, 10),
};
if (!only.length) writeFileSync(join(root, 'BENCHMARKS.md'), renderReport(machine, results));
process.stdout.write(JSON.stringify({ machine, results }, null, 2) + '\n');
process.exit(failures ? 1 : 0);
