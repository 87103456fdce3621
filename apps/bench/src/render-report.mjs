// BENCHMARKS.md from the collected results: the machine and command first, then one section per
// benchmark with its JSON result lines (each benchmark documents its own fields).
export function renderReport(machine, results) {
  const lines = [
    '# Benchmarks',
    '',
    'Measured with `pnpm bench` (which builds first and then runs `node apps/bench/src/run-all.mjs`).',
    'Numbers are medians where a benchmark repeats; speed is only measured here, never asserted in tests.',
    'What each benchmark measures, how to profile, and what the hot-path figures came from: `docs/benchmarks.md`.',
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| cores | ${machine.cores} |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| Node.js | ${machine.node} (${machine.platform}) |`,
    `| date | ${machine.date} |`,
    '',
  ];
  lines.push(...targetsTable(results));
  for (const result of results) {
    lines.push(`## ${result.name}`, '', `Script: \`${[result.script, ...(result.args ?? [])].join(' ')}\``, '');
    if (result.status === 'missing') lines.push('Not present in this checkout.', '');
    else if (result.status === 'failed') lines.push('**Failed:**', '', '```', result.error || '(no output)', '```', '');
    else {
      lines.push(`Took ${result.seconds} s.`, '', '```json');
      for (const entry of result.results) lines.push(JSON.stringify(entry, null, result.results.length === 1 ? 2 : 0));
      lines.push('```', '');
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The figures the issues set aims for, next to what was measured. */
function targetsTable(results) {
  const find = (name) => results.find((result) => result.name === name && result.status === 'ok')?.results ?? [];
  const rows = [];
  const add = (what, aim, value, met) => rows.push(`| ${what} | ${aim || '—'} | ${value ?? 'not measured'} | ${value === undefined || !aim ? '' : met ? 'yes' : '**no**'} |`);
  const overhead = find('framework-overhead')[0];
  add('framework overhead per step (scripted model, memory store)', '< 1 ms', overhead && `${overhead.memory.msPerStep} ms`, overhead?.memory.msPerStep < 1);
  add('framework overhead per step (SQLite store)', '', overhead && `${overhead.sqlite.msPerStep} ms`, true);
  // The shipped SDK against a raw openai loop: the benchmark reports its own targets as met or not.
  const loop = find('openai-loop')[0];
  if (loop) for (const target of loop.targets) add(`${target.measure} (@cairn/sdk)`, target.aim, target.measured, target.met);
  if (!loop) add('start-up, time per step and peak RSS vs raw openai loop (@cairn/sdk)', '', undefined, false);
  // The built `cairn` command against `node -e 0` and a plain openai script: its own targets too.
  const cli = find('cli-startup')[0];
  if (cli) for (const target of cli.targets) add(target.measure, target.aim, target.measured, target.met);
  else add('`cairn --help` and a one-step run vs node -e 0 and a plain openai script (cli-startup)', '', undefined, false);
  const storeStep = find('store-step-cost')[0];
  if (storeStep) {
    add('SQLite write transactions per runtime step', '', `${storeStep.writeTransactionsPerStep} (${storeStep.eventsPerStep} events)`, true);
    add('SQLite WAL written per runtime step', '', `${storeStep.walKbPerStep} KB`, true);
  }
  const index = find('indexer')[0];
  if (index?.fullIndex) {
    const per100k = (index.fullIndex.seconds * 100_000) / index.corpus.lines;
    add(`full index, BM25 only (${index.corpus.lines} lines)`, '100k lines < 30 s', `${index.fullIndex.seconds} s (${Math.round(per100k * 10) / 10} s per 100k lines)`, per100k < 30);
    const reindex = Object.values(index.oneFileReindex ?? {}).map((entry) => entry?.p50Ms ?? entry?.ms).filter((value) => typeof value === 'number');
    if (reindex.length) add('one-file re-index', '< 200 ms', `${Math.max(...reindex)} ms (slowest case)`, Math.max(...reindex) < 200);
    add('query latency p50 (BM25)', '< 20 ms', `${index.queryBm25.p50Ms} ms (p95 ${index.queryBm25.p95Ms} ms)`, index.queryBm25.p50Ms < 20);
  }
  const evaluation = find('indexer-retrieval-eval')[0];
  for (const corpus of evaluation?.corpora ?? []) {
    const { shippedBm25SyntaxChunks: shipped, shippedBm25LineWindows: lines, baselineRef: before } = corpus.systems;
    const name = corpus.corpus.name.split(' (')[0] + (corpus.corpus.name.includes('whole') ? ' (whole package)' : '');
    const { acceptance } = corpus;
    if (before) {
      add(`file R@10 / MRR vs main (${before.ref}), ${name}`, '>= main', `${before.file.recallAt10} -> ${shipped.file.recallAt10} / ${before.file.mrr} -> ${shipped.file.mrr}`, acceptance.noRegression);
      if (acceptance.fileRecallAt10RisesBy003 !== undefined) {
        add(`file R@10 rise on a corpus with tests, ${name}`, '>= +0.03', `${acceptance.fileRecallAt10Delta >= 0 ? '+' : ''}${acceptance.fileRecallAt10Delta}`, acceptance.fileRecallAt10RisesBy003);
        add(`non-source share of the top 10, ${name}`, 'down by a third', `${before.nonSourceShareTop10} -> ${shipped.nonSourceShareTop10}`, acceptance.nonSourceShareFallsByAThird);
      }
    }
    if (lines) add(`chunk recall@10, tree-sitter vs line windows, ${name}`, 'higher', `${shipped.chunk.recallAt10} vs ${lines.chunk.recallAt10}`, acceptance.syntaxBeatsLinesAtChunkLevel);
  }
  const searchProcess = find('cairn-search-process')[0];
  if (searchProcess) {
    add('one `cairn search` process, indexed unchanged tree', '<= 300 ms', `${searchProcess.cairnSearchMs} ms (node -e 0 ${searchProcess.nodeNoopMs} ms, cairn --help ${searchProcess.cliHelpMs} ms)`, searchProcess.met);
  }
  const vectors = find('vector-search')[0];
  if (vectors) add(`hybrid search p50 on a vector index (${vectors.tree?.lines ?? '?'} lines)`, '< 30 ms', `${vectors.inProcess.hybrid.p50Ms} ms (keywords only ${vectors.inProcess.keywordOnly?.p50Ms ?? '?'} ms)`, vectors.met);
  for (const pattern of find('grep-vs-ripgrep')[0]?.patterns ?? []) {
    add(`grep tool vs \`rg -n\`, pattern ${JSON.stringify(pattern.pattern)}`, '<= 1.2x', `${pattern.ratioToRg}x (${pattern.grepToolMs} vs ${pattern.rgMs} ms)`, pattern.met);
  }
  const diagnostics = find('diagnostics')[0];
  if (diagnostics) {
    add('diagnostics after an edit: first (cold / warm), per edit p50', '', `${diagnostics.coldFirstDiagnosticsMs.median} / ${diagnostics.warmFirstDiagnosticsMs} ms, ${diagnostics.perEditMs.p50} ms (one tsc --noEmit ${diagnostics.baseline.tscNoEmitMs} ms)`, true);
    add('language server memory (warm / after edits)', '', `${diagnostics.serverRssMiB.warm} / ${diagnostics.serverRssMiB.afterEdits} MiB`, true);
  }
  const cache = find('cache-stability');
  for (const scenario of cache) {
    const shares = (scenario.perRequest ?? []).slice(1).map((share) => share.charShare);
    if (shares.length) add(`cache-stable prefix, ${scenario.scenario}`, '>= 95 % from step 2', `min ${Math.round(Math.min(...shares) * 1000) / 10} %`, Math.min(...shares) >= 0.95);
  }
  if (rows.length === 0) return [];
  return ['## Aims', '', '| measure | aim | measured | met |', '|---|---|---|---|', ...rows, ''];
}
