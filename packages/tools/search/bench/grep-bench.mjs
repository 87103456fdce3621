// grep tool vs plain ripgrep on a 5M-line tree (issue 19: grep ≤ 1.2× `rg -n`). The tree is the
// indexer's bench corpora copied under several folder names (offline). Rounds are interleaved;
// medians of wall time. The tool runs rg jailed (bubblewrap) when it can, parses, filters and sorts.
//   node packages/tools/search/bench/grep-bench.mjs   (after building @cairn/tools-search)
import { spawn } from 'node:child_process';
import { buildLargeTree } from '../../../indexer/bench/large-tree.mjs';
import { grepTool, locateRipgrep } from '../dist/index.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const targetLines = Number(process.env.GREP_BENCH_LINES ?? 5_000_000);
const patterns = process.env.GREP_BENCH_PATTERNS?.split(',') ?? ['ZodError', 'addEventListener', 'function\\s+\\w+Locale', 'noSuchIdentifierAnywhere'];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 1) => Number(value.toFixed(digits));

function context(cwd) {
  const state = new Map();
  return {
    toolCallId: 'bench', agentId: 'bench', runId: 'bench', cwd, mode: 'agent', signal: new AbortController().signal, emit: () => undefined,
    state: { get: (key) => state.get(key), set: (key, value) => void state.set(key, value) },
    recordFileChange: async () => undefined, sandbox: { profile: 'none', networkAllow: [], required: false },
    isPathDenied: () => false, settings: {}, env: {},
  };
}

function timeProcess(file, args, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', () => resolve({ ms: performance.now() - started, bytes }));
  });
}

const rgPath = await locateRipgrep();
if (!rgPath) throw new Error('no ripgrep binary (@vscode/ripgrep) to compare with');
const tree = buildLargeTree(targetLines);
const result = { benchmark: 'grep-vs-ripgrep', tree: { files: tree.files, lines: tree.lines, megabytes: round(tree.bytes / 1e6) }, rounds, target: 'grep ≤ 1.2× rg -n', patterns: [] };
try {
  for (const pattern of patterns) {
    const times = { rg: [], rgSorted: [], tool: [] };
    let outputBytes = 0;
    let toolLines = 0;
    for (let index = 0; index < rounds + 1; index++) {
      const rg = await timeProcess(rgPath, ['-n', '-e', pattern], tree.root);
      const sorted = await timeProcess(rgPath, ['-n', '--sort=path', '-e', pattern], tree.root);
      const started = performance.now();
      const output = await grepTool.execute({ pattern }, context(tree.root));
      const toolMs = performance.now() - started;
      if (index === 0) continue; // warm-up: page cache, bubblewrap probe
      times.rg.push(rg.ms);
      times.rgSorted.push(sorted.ms);
      times.tool.push(toolMs);
      outputBytes = rg.bytes;
      toolLines = output.content[0].text.split('\n').length;
    }
    const rgMs = median(times.rg);
    const toolMs = median(times.tool);
    result.patterns.push({
      pattern, rgOutputKb: round(outputBytes / 1024), toolLines,
      rgMs: round(rgMs), rgSortedMs: round(median(times.rgSorted)), grepToolMs: round(toolMs),
      ratioToRg: round(toolMs / rgMs, 2), sortedRatioToRg: round(median(times.rgSorted) / rgMs, 2), met: toolMs / rgMs <= 1.2,
    });
  }
} finally {
  tree.dispose();
}
console.log(JSON.stringify(result, null, 2));
